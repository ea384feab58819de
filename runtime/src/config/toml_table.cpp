#include "cosched/config/toml_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/count_list.hpp"

namespace cosched::config {

struct TomlTable::Node {
  std::shared_ptr<const toml::table> document;  // keeps `table` alive
  const toml::table* table = nullptr;
  std::string source;
};

namespace {

std::string where_of(const std::string& source, const toml::node& node) {
  const auto& begin = node.source().begin;
  if (begin.line == 0) return source;
  return fmt::format("{}:{}", source, begin.line);
}

toml::table parse_document(std::string_view text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    throw InputError(fmt::format("{}:{}:{}", source, begin.line, begin.column), std::string(e.description()));
  }
}

}  // namespace

TomlTable::TomlTable(std::shared_ptr<const Node> node, std::string prefix)
    : node_(std::move(node)), prefix_(std::move(prefix)) {}

TomlTable TomlTable::parse_file(const std::filesystem::path& path, const std::string& what) {
  const std::string text = read_text_file(path, what);
  return parse(text, path.string());
}

TomlTable TomlTable::parse(std::string_view text, const std::string& source) {
  auto document = std::make_shared<const toml::table>(parse_document(text, source));
  auto node = std::make_shared<Node>();
  node->table = document.get();
  node->document = std::move(document);
  node->source = source;
  return TomlTable(std::move(node), "");
}

std::string TomlTable::where() const { return where_of(node_->source, *node_->table); }

std::string TomlTable::where(std::string_view key) const {
  const auto* value = node_->table->get(key);
  return value == nullptr ? where() : where_of(node_->source, *value);
}

std::string TomlTable::name_of(std::string_view key) const { return prefix_ + std::string(key); }

const std::string& TomlTable::source() const noexcept { return node_->source; }

bool TomlTable::contains(std::string_view key) const { return node_->table->contains(key); }

bool TomlTable::holds_string(std::string_view key) const {
  const auto* node = node_->table->get(key);
  return node != nullptr && node->is_string();
}

bool TomlTable::holds_array(std::string_view key) const {
  const auto* node = node_->table->get(key);
  return node != nullptr && node->is_array();
}

std::vector<std::string> TomlTable::keys() const {
  std::vector<std::string> names;
  for (const auto& [key, value] : *node_->table) names.emplace_back(key.str());
  return names;
}

void TomlTable::allow_only(std::initializer_list<std::string_view> allowed) const {
  for (const auto& [key, value] : *node_->table) {
    if (std::find(allowed.begin(), allowed.end(), key.str()) == allowed.end()) {
      throw InputError(where_of(node_->source, value),
                       fmt::format("unknown key '{}' (allowed: {})", name_of(key.str()), fmt::join(allowed, ", ")));
    }
  }
}

namespace {

[[noreturn]] void wrong_type(const std::string& where, const std::string& name, std::string_view expected) {
  throw InputError(where, fmt::format("key '{}' must be {}", name, expected));
}

std::optional<double> number_of(const toml::node& node) {
  if (const auto* value = node.as_floating_point()) return value->get();
  if (const auto* value = node.as_integer()) return static_cast<double>(value->get());
  return std::nullopt;
}

}  // namespace

std::optional<std::string> TomlTable::string(std::string_view key) const {
  const auto* node = node_->table->get(key);
  if (node == nullptr) return std::nullopt;
  if (const auto* value = node->as_string()) return value->get();
  wrong_type(where(key), name_of(key), "a string");
}

std::optional<double> TomlTable::number(std::string_view key, const Range& range) const {
  const auto* node = node_->table->get(key);
  if (node == nullptr) return std::nullopt;
  const auto value = number_of(*node);
  if (!value) wrong_type(where(key), name_of(key), "a number");
  return checked_number(*value, range, where(key), fmt::format("key '{}'", name_of(key)));
}

std::optional<std::int64_t> TomlTable::integer(std::string_view key, std::int64_t min, std::int64_t max) const {
  const auto* node = node_->table->get(key);
  if (node == nullptr) return std::nullopt;
  const auto* value = node->as_integer();
  if (value == nullptr) wrong_type(where(key), name_of(key), fmt::format("an integer from {} to {}", min, max));
  return checked_count(value->get(), min, max, where(key), fmt::format("key '{}'", name_of(key)));
}

std::optional<bool> TomlTable::boolean(std::string_view key) const {
  const auto* node = node_->table->get(key);
  if (node == nullptr) return std::nullopt;
  if (const auto* value = node->as_boolean()) return value->get();
  wrong_type(where(key), name_of(key), "true or false");
}

std::optional<std::vector<std::string>> TomlTable::strings(std::string_view key) const {
  const auto* node = node_->table->get(key);
  if (node == nullptr) return std::nullopt;
  const auto* array = node->as_array();
  if (array == nullptr) wrong_type(where(key), name_of(key), "an array of strings");
  std::vector<std::string> values;
  for (const auto& element : *array) {
    const auto* text = element.as_string();
    if (text == nullptr) wrong_type(where_of(node_->source, element), name_of(key), "an array of strings");
    values.push_back(text->get());
  }
  return values;
}

std::optional<std::vector<double>> TomlTable::numbers(std::string_view key, const Range& range) const {
  const auto* node = node_->table->get(key);
  if (node == nullptr) return std::nullopt;
  const auto* array = node->as_array();
  if (array == nullptr) wrong_type(where(key), name_of(key), "an array of numbers");
  std::vector<double> values;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const auto& element = (*array)[i];
    const auto value = number_of(element);
    if (!value) wrong_type(where_of(node_->source, element), name_of(key), "an array of numbers");
    values.push_back(checked_number(*value, range, where_of(node_->source, element),
                                    fmt::format("key '{}' [{}]", name_of(key), i)));
  }
  return values;
}

std::optional<std::vector<unsigned>> TomlTable::counts(std::string_view key, unsigned max) const {
  const auto* node = node_->table->get(key);
  if (node == nullptr) return std::nullopt;
  std::vector<unsigned> values;
  if (const auto* text = node->as_string()) {
    try {
      values = parse_count_list(text->get());
    } catch (const UsageError& e) {
      throw InputError(where(key), fmt::format("key '{}': {}", name_of(key), e.what()));
    }
  } else if (const auto* array = node->as_array()) {
    for (const auto& element : *array) {
      const auto* integer = element.as_integer();
      if (integer == nullptr) {
        wrong_type(where_of(node_->source, element), name_of(key), "an array of non-negative integers");
      }
      values.push_back(static_cast<unsigned>(checked_count(integer->get(), 0, max, where_of(node_->source, element),
                                                           fmt::format("key '{}'", name_of(key)))));
    }
  } else {
    wrong_type(where(key), name_of(key), "an array of integers or a range string like \"0..20\"");
  }
  for (const unsigned value : values) {
    if (value > max) {
      throw InputError(where(key), fmt::format("key '{}': {} is above the limit {}", name_of(key), value, max));
    }
  }
  return values;
}

std::optional<TomlTable> TomlTable::table(std::string_view key) const {
  const auto* node = node_->table->get(key);
  if (node == nullptr) return std::nullopt;
  const auto* sub = node->as_table();
  if (sub == nullptr) wrong_type(where(key), name_of(key), fmt::format("a table [{}]", name_of(key)));
  auto child = std::make_shared<Node>(Node{node_->document, sub, node_->source});
  return TomlTable(std::move(child), name_of(key) + ".");
}

std::optional<std::vector<TomlTable>> TomlTable::tables(std::string_view key) const {
  const auto* node = node_->table->get(key);
  if (node == nullptr) return std::nullopt;
  const auto* array = node->as_array();
  if (array == nullptr) wrong_type(where(key), name_of(key), fmt::format("an array of tables [[{}]]", name_of(key)));
  std::vector<TomlTable> entries;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const auto* sub = (*array)[i].as_table();
    if (sub == nullptr) {
      wrong_type(where_of(node_->source, (*array)[i]), name_of(key),
                 fmt::format("an array of tables [[{}]]", name_of(key)));
    }
    auto child = std::make_shared<Node>(Node{node_->document, sub, node_->source});
    entries.push_back(TomlTable(std::move(child), fmt::format("{}[{}].", name_of(key), i)));
  }
  return entries;
}

std::string toml_basic_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\u{:04X}", byte);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace cosched::config
