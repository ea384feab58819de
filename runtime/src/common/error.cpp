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
