#include "toml_fields.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/profiler/sweep_config.hpp"

namespace cosched::profiler::toml_fields {
namespace {

const toml::node* find(const toml::table& table, std::string_view key) { return table.get(key); }

[[noreturn]] void wrong_type(const std::filesystem::path& path, const toml::node& node, std::string_view key,
                             std::string_view expected) {
  throw InputError(where(path, node), fmt::format("key '{}' must be {}", key, expected));
}

}  // namespace

toml::table parse_file(const std::filesystem::path& path) {
  try {
    return toml::parse_file(path.string());
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    throw InputError(fmt::format("{}:{}:{}", path.string(), begin.line, begin.column),
                     std::string(e.description()));
  }
}

std::string where(const std::filesystem::path& path, const toml::node& node) {
  const auto& begin = node.source().begin;
  if (begin.line == 0) return path.string();
  return fmt::format("{}:{}", path.string(), begin.line);
}

void reject_unknown_keys(const toml::table& table, std::initializer_list<std::string_view> allowed,
                         const std::filesystem::path& path, std::string_view context) {
  for (const auto& [key, node] : table) {
    if (std::find(allowed.begin(), allowed.end(), key.str()) == allowed.end()) {
      throw InputError(where(path, node), fmt::format("unknown key '{}{}' (allowed: {})", context, key.str(),
                                                      fmt::join(allowed, ", ")));
    }
  }
}

std::optional<std::string> get_string(const toml::table& table, std::string_view key,
                                      const std::filesystem::path& path) {
  const auto* node = find(table, key);
  if (node == nullptr) return std::nullopt;
  if (const auto* value = node->as_string()) return value->get();
  wrong_type(path, *node, key, "a string");
}

std::optional<double> get_number(const toml::table& table, std::string_view key,
                                 const std::filesystem::path& path) {
  const auto* node = find(table, key);
  if (node == nullptr) return std::nullopt;
  if (const auto* value = node->as_floating_point()) return value->get();
  if (const auto* value = node->as_integer()) return static_cast<double>(value->get());
  wrong_type(path, *node, key, "a number");
}

std::optional<std::int64_t> get_integer(const toml::table& table, std::string_view key,
                                        const std::filesystem::path& path) {
  const auto* node = find(table, key);
  if (node == nullptr) return std::nullopt;
  if (const auto* value = node->as_integer()) return value->get();
  wrong_type(path, *node, key, "an integer");
}

std::optional<std::vector<std::string>> get_string_list(const toml::table& table, std::string_view key,
                                                        const std::filesystem::path& path) {
  const auto* node = find(table, key);
  if (node == nullptr) return std::nullopt;
  const auto* array = node->as_array();
  if (array == nullptr) wrong_type(path, *node, key, "an array of strings");
  std::vector<std::string> values;
  for (const auto& element : *array) {
    const auto* text = element.as_string();
    if (text == nullptr) wrong_type(path, element, key, "an array of strings");
    values.push_back(text->get());
  }
  return values;
}

std::optional<std::vector<double>> get_number_list(const toml::table& table, std::string_view key,
                                                   const std::filesystem::path& path) {
  const auto* node = find(table, key);
  if (node == nullptr) return std::nullopt;
  const auto* array = node->as_array();
  if (array == nullptr) wrong_type(path, *node, key, "an array of numbers");
  std::vector<double> values;
  for (const auto& element : *array) {
    if (const auto* f = element.as_floating_point()) {
      values.push_back(f->get());
    } else if (const auto* i = element.as_integer()) {
      values.push_back(static_cast<double>(i->get()));
    } else {
      wrong_type(path, element, key, "an array of numbers");
    }
  }
  return values;
}

std::optional<std::vector<unsigned>> get_count_list(const toml::table& table, std::string_view key,
                                                    const std::filesystem::path& path) {
  const auto* node = find(table, key);
  if (node == nullptr) return std::nullopt;
  if (const auto* text = node->as_string()) {
    try {
      return parse_count_list(text->get());
    } catch (const UsageError& e) {
      throw InputError(where(path, *node), fmt::format("key '{}': {}", key, e.what()));
    }
  }
  const auto* array = node->as_array();
  if (array == nullptr) wrong_type(path, *node, key, "an array of integers or a range string like \"0..20\"");
  std::vector<unsigned> values;
  for (const auto& element : *array) {
    const auto* integer = element.as_integer();
    if (integer == nullptr || integer->get() < 0 || integer->get() > 1'000'000) {
      wrong_type(path, element, key, "an array of non-negative integers");
    }
    values.push_back(static_cast<unsigned>(integer->get()));
  }
  return values;
}

}  // namespace cosched::profiler::toml_fields
