#pragma once
// Typed, validated access to the fields of one JSON object, built on json_input.hpp's checks (finite numbers in
// range, integers that never wrap): a field of the wrong type is always the same InputError naming the field, its
// place and the value found ("run.jsonl:7: \"t\" must be a number, got \"soon\""). The journal's schema
// (launcher/journal/events.hpp) reads every event through it.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cosched/common/checked.hpp"

namespace cosched {

// An optional value as JSON: the value, or null when absent (how the journal and the report write optionals).
template <typename T>
[[nodiscard]] nlohmann::json optional_json(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

class JsonFields {
 public:
  // Throws InputError when `object` is not a JSON object.
  JsonFields(const nlohmann::json& object, std::string where);

  [[nodiscard]] const std::string& where() const noexcept { return where_; }
  // Present and not null (null counts as absent: it is how optional values are written).
  [[nodiscard]] bool has(const char* key) const;

  [[nodiscard]] std::string required_text(const char* key) const;
  [[nodiscard]] std::string text(const char* key) const;  // "" when absent
  [[nodiscard]] std::optional<std::string> optional_text(const char* key) const;
  [[nodiscard]] bool flag(const char* key) const;  // false when absent

  // Seconds: finite, in [0, kMaxSeconds]. 0 (or nullopt) when absent.
  [[nodiscard]] double required_seconds(const char* key) const;
  [[nodiscard]] double seconds(const char* key) const;
  [[nodiscard]] std::optional<double> optional_seconds(const char* key) const;
  // Any finite number in `range`; `fallback` when absent.
  [[nodiscard]] double number(const char* key, const Range& range, double fallback) const;
  [[nodiscard]] std::optional<double> optional_number(const char* key, const Range& range) const;

  // Integers in [min, max]; `fallback` (or nullopt) when absent.
  [[nodiscard]] std::int64_t integer(const char* key, std::int64_t min, std::int64_t max, std::int64_t fallback) const;
  [[nodiscard]] std::optional<std::int64_t> optional_integer(const char* key, std::int64_t min, std::int64_t max) const;
  [[nodiscard]] std::vector<std::int64_t> integers(const char* key, std::int64_t min, std::int64_t max) const;
  [[nodiscard]] std::vector<std::string> texts(const char* key) const;

  // The elements of an array field (empty when absent), each with its own place: "<where>: plan[3]".
  [[nodiscard]] std::vector<JsonFields> objects(const char* key) const;
  // A nested object field, nullopt when absent.
  [[nodiscard]] std::optional<JsonFields> object(const char* key) const;

 private:
  [[nodiscard]] const nlohmann::json& at(const char* key) const;
  [[noreturn]] void wrong_type(const char* key, const char* expected) const;
  [[nodiscard]] const nlohmann::json& array(const char* key) const;  // throws unless an array; requires has(key)

  const nlohmann::json* object_;
  std::string where_;
};

}  // namespace cosched
