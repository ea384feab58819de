#include "cosched/common/json_fields.hpp"

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/common/json_input.hpp"

namespace cosched {

using nlohmann::json;

namespace {

// The offending value as the file has it, cut short: enough to recognise it, never a whole array.
std::string shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

}  // namespace

JsonFields::JsonFields(const json& object, std::string where) : object_(&object), where_(std::move(where)) {
  if (!object.is_object()) throw InputError(where_, fmt::format("expected a JSON object, got {}", shown(object)));
}

bool JsonFields::has(const char* key) const {
  const auto found = object_->find(key);
  return found != object_->end() && !found->is_null();
}

const json& JsonFields::at(const char* key) const { return (*object_)[key]; }

void JsonFields::wrong_type(const char* key, const char* expected) const {
  throw InputError(where_, fmt::format("\"{}\" must be {}, got {}", key, expected, shown(at(key))));
}

std::string JsonFields::required_text(const char* key) const {
  if (!has(key)) throw InputError(where_, fmt::format("missing \"{}\" (a string)", key));
  return text(key);
}

std::string JsonFields::text(const char* key) const { return optional_text(key).value_or(std::string()); }

std::optional<std::string> JsonFields::optional_text(const char* key) const {
  if (!has(key)) return std::nullopt;
  if (!at(key).is_string()) wrong_type(key, "a string");
  return at(key).get<std::string>();
}

bool JsonFields::flag(const char* key) const {
  if (!has(key)) return false;
  if (!at(key).is_boolean()) wrong_type(key, "true or false");
  return at(key).get<bool>();
}

double JsonFields::required_seconds(const char* key) const {
  if (!has(key)) throw InputError(where_, fmt::format("missing \"{}\" (seconds)", key));
  return seconds(key);
}

double JsonFields::seconds(const char* key) const { return optional_seconds(key).value_or(0.0); }

std::optional<double> JsonFields::optional_seconds(const char* key) const {
  return optional_number(key, non_negative_up_to(kMaxSeconds));
}

double JsonFields::number(const char* key, const Range& range, double fallback) const {
  return optional_number(key, range).value_or(fallback);
}

std::optional<double> JsonFields::optional_number(const char* key, const Range& range) const {
  if (!has(key)) return std::nullopt;
  if (!at(key).is_number()) wrong_type(key, "a number");
  return json_to_number(at(key), range, where_, fmt::format("\"{}\"", key));
}

std::int64_t JsonFields::integer(const char* key, std::int64_t min, std::int64_t max, std::int64_t fallback) const {
  return optional_integer(key, min, max).value_or(fallback);
}

std::optional<std::int64_t> JsonFields::optional_integer(const char* key, std::int64_t min, std::int64_t max) const {
  if (!has(key)) return std::nullopt;
  if (!at(key).is_number_integer()) wrong_type(key, "an integer");
  return json_to_integer(at(key), min, max, where_, fmt::format("\"{}\"", key));
}

const json& JsonFields::array(const char* key) const {
  if (!at(key).is_array()) wrong_type(key, "an array");
  return at(key);
}

std::vector<std::int64_t> JsonFields::integers(const char* key, std::int64_t min, std::int64_t max) const {
  std::vector<std::int64_t> values;
  if (!has(key)) return values;
  for (const json& value : array(key)) {
    if (!value.is_number_integer()) wrong_type(key, fmt::format("an array of integers in [{}, {}]", min, max).c_str());
    values.push_back(json_to_integer(value, min, max, where_, fmt::format("\"{}\"", key)));
  }
  return values;
}

std::vector<std::string> JsonFields::texts(const char* key) const {
  std::vector<std::string> values;
  if (!has(key)) return values;
  for (const json& value : array(key)) {
    if (!value.is_string()) wrong_type(key, "an array of strings");
    values.push_back(value.get<std::string>());
  }
  return values;
}

std::vector<JsonFields> JsonFields::objects(const char* key) const {
  std::vector<JsonFields> values;
  if (!has(key)) return values;
  const json& elements = array(key);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    values.emplace_back(elements[i], fmt::format("{}: {}[{}]", where_, key, i));
  }
  return values;
}

std::optional<JsonFields> JsonFields::object(const char* key) const {
  if (!has(key)) return std::nullopt;
  return JsonFields(at(key), fmt::format("{}: {}", where_, key));
}

}  // namespace cosched
