#include "cosched/common/json_input.hpp"

#include <fmt/format.h>

#include <limits>

#include "cosched/common/error.hpp"

namespace cosched {

using nlohmann::json;

namespace {

// "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> the part after the tag.
std::string without_tag(const char* what) {
  std::string_view text(what);
  if (const auto end = text.find("] "); text.starts_with("[json.exception.") && end != std::string_view::npos) {
    text.remove_prefix(end + 2);
  }
  return std::string(text);
}

// nlohmann's out_of_range for an overflowing number carries no position: it names the literal
// ("number overflow parsing '1e999'"), so the literal is looked up in the text to give one.
std::size_t position_of_literal(std::string_view text, std::string_view message) {
  const auto open = message.find('\'');
  const auto close = message.rfind('\'');
  if (open == std::string_view::npos || close <= open) return std::string_view::npos;
  return text.find(message.substr(open + 1, close - open - 1));
}

}  // namespace

json parse_json_text(std::string_view text, const std::string& source) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    throw InputError(source, fmt::format("not valid JSON at byte {}: {}", e.byte, without_tag(e.what())));
  } catch (const json::exception& e) {
    const std::string message = without_tag(e.what());
    const std::size_t at = position_of_literal(text, message);
    throw InputError(source, at == std::string_view::npos
                                 ? fmt::format("not valid JSON: {}", message)
                                 : fmt::format("not valid JSON at byte {}: {}", at + 1, message));
  }
}

void require_json_object(const json& value, const std::string& where) {
  if (!value.is_object()) throw InputError(where, "is not a JSON object");
}

const json& json_member(const json& object, std::string_view key, const std::string& where) {
  const json* member = find_json_member(object, key, where);
  if (member == nullptr) throw InputError(where, fmt::format("missing \"{}\"", key));
  return *member;
}

const json* find_json_member(const json& object, std::string_view key, const std::string& where) {
  require_json_object(object, where);
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string json_to_string(const json& value, const std::string& where, std::string_view name) {
  if (!value.is_string()) throw InputError(where, fmt::format("{} is not a string", name));
  return value.get<std::string>();
}

const json& json_to_array(const json& value, const std::string& where, std::string_view name) {
  if (!value.is_array()) throw InputError(where, fmt::format("{} is not an array", name));
  return value;
}

double json_to_number(const json& value, const Range& range, const std::string& where, std::string_view name) {
  if (!value.is_number()) throw InputError(where, fmt::format("{} is not a number", name));
  return checked_number(value.get<double>(), range, where, name);
}

std::int64_t json_to_integer(const json& value, std::int64_t min, std::int64_t max, const std::string& where,
                             std::string_view name) {
  // Unsigned values above INT64_MAX are refused as out of range, not wrapped to negative numbers.
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()}) {
    throw InputError(where, fmt::format("{} must be an integer from {} to {}, got {}", name, min, max,
                                        value.get<std::uint64_t>()));
  }
  if (!value.is_number_integer()) throw InputError(where, fmt::format("{} is not an integer", name));
  return checked_count(value.get<std::int64_t>(), min, max, where, name);
}

}  // namespace cosched
