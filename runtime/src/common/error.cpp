#include "cosched/common/error.hpp"

#include <cstring>

namespace cosched {

namespace {
std::string with_errno(const std::string& call, const std::string& message, int errno_value) {
  std::string text = call + ": " + message;
  if (errno_value != 0) text += " (" + std::string(std::strerror(errno_value)) + ")";
  return text;
}
}  // namespace

std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t') || byte == 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

std::string bounded_echo(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return printable(text);
  const auto continues = [&](std::size_t at) { return (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80; };
  std::size_t head = limit * 2 / 3;  // the start says what it is, the end often which file or option
  std::size_t tail = text.size() - limit / 3;
  while (head > 0 && continues(head)) --head;
  while (tail < text.size() && continues(tail)) ++tail;
  return printable(text.substr(0, head)) + "[... " + std::to_string(tail - head) + " bytes ...]" +
         printable(text.substr(tail));
}

PlatformError::PlatformError(const std::string& call, const std::string& message, int errno_value)
    : Error(ErrorKind::platform, with_errno(call, message, errno_value)) {}

int exit_code_for(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::usage: return 2;
    case ErrorKind::input: return 3;
    case ErrorKind::resource: return 4;
    case ErrorKind::platform: return 5;
    case ErrorKind::runtime: return 6;
  }
  return 1;
}

const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::usage: return "usage error";
    case ErrorKind::input: return "input error";
    case ErrorKind::resource: return "resource error";
    case ErrorKind::platform: return "platform error";
    case ErrorKind::runtime: return "runtime error";
  }
  return "error";
}

}  // namespace cosched
