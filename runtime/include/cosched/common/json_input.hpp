#pragma once
// JSON input, checked where it is read. nlohmann::json reports a syntax error as parse_error but a number that
// overflows a double (`1e999`) as out_of_range, and get<int>() silently wraps a value that does not fit: every
// JSON reader of the project goes through these helpers so that each such case is an InputError naming the file,
// the entry and the key — never an internal error, never a wrapped number.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "cosched/common/checked.hpp"

namespace cosched {

// The JSON value in `text`. Throws InputError(source, "not valid JSON at byte N: ...") for any syntax error and
// for a number too large for a double.
[[nodiscard]] nlohmann::json parse_json_text(std::string_view text, const std::string& source);

// Throws InputError(where, "is not a JSON object") unless `value` is an object.
void require_json_object(const nlohmann::json& value, const std::string& where);

// The member `key` of the object `object`; InputError(where, "missing \"key\"") when absent (and as above when
// `object` is not an object).
[[nodiscard]] const nlohmann::json& json_member(const nlohmann::json& object, std::string_view key,
                                                const std::string& where);
// The member `key`, or nullptr when absent.
[[nodiscard]] const nlohmann::json* find_json_member(const nlohmann::json& object, std::string_view key,
                                                     const std::string& where);

// Typed values; `name` is how the message calls the value ("\"start\"", "times[3]").
[[nodiscard]] std::string json_to_string(const nlohmann::json& value, const std::string& where,
                                         std::string_view name);
[[nodiscard]] const nlohmann::json& json_to_array(const nlohmann::json& value, const std::string& where,
                                                  std::string_view name);
// A finite number within `range` (checked_number's message).
[[nodiscard]] double json_to_number(const nlohmann::json& value, const Range& range, const std::string& where,
                                    std::string_view name);
// An integer (a JSON number without fraction or exponent) in [min, max] (checked_count's message).
[[nodiscard]] std::int64_t json_to_integer(const nlohmann::json& value, std::int64_t min, std::int64_t max,
                                           const std::string& where, std::string_view name);

}  // namespace cosched
