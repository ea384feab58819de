#include "cosched/common/identifier.hpp"

#include "cosched/common/error.hpp"

namespace cosched {

namespace {
bool is_safe_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-' || c == '+';
}
}  // namespace

bool is_safe_identifier(std::string_view id) noexcept {
  if (id.empty() || id.size() > kMaxIdentifierLength) return false;
  if (id.front() == '.' || id.front() == '-') return false;
  for (const char c : id) {
    if (!is_safe_char(c)) return false;
  }
  return true;
}

void check_identifier(std::string_view id, const std::string& where) {
  if (is_safe_identifier(id)) return;
  // The message shows the id as given (its first 60 bytes); Error escapes control bytes such as ESC as \x1b.
  const std::string shown(id.substr(0, 60));
  throw InputError(where, "id \"" + shown + "\" is not allowed: ids name files, so they use 1 to " +
                              std::to_string(kMaxIdentifierLength) +
                              " characters of A-Z a-z 0-9 . _ + - and do not start with '.' or '-'");
}

std::string safe_identifier_from(std::string_view text, std::string_view fallback) {
  std::string id;
  for (const char c : text) {
    if (id.empty() && (c == '.' || c == '-')) continue;
    id += is_safe_char(c) ? c : '_';
  }
  if (id.size() > kMaxIdentifierLength) id.resize(kMaxIdentifierLength);
  return id.empty() ? std::string(fallback) : id;
}

}  // namespace cosched
