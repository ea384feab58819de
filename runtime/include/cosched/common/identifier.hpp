#pragma once
// Ids given by users (task ids, workload names) end up naming files: a task's logs are <log dir>/<id>.out. So
// an id is checked where it is parsed, against one safe character set, and never escapes its folder.
#include <string>
#include <string_view>

namespace cosched {

inline constexpr std::size_t kMaxIdentifierLength = 200;

// 1..kMaxIdentifierLength characters from [A-Za-z0-9._+-], not starting with '.' or '-'.
[[nodiscard]] bool is_safe_identifier(std::string_view id) noexcept;

// Throws InputError(where, ...) naming the id and the rule when is_safe_identifier(id) is false.
void check_identifier(std::string_view id, const std::string& where);

// `text` made into an id by the same rule: every other character replaced by '_', leading '.' and '-' dropped,
// cut to kMaxIdentifierLength; `fallback` (itself a safe id) when nothing is left.
[[nodiscard]] std::string safe_identifier_from(std::string_view text, std::string_view fallback);

}  // namespace cosched
