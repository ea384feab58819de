#pragma once
// Errors by kind. Library code throws these with enough context to act on (file:line of the bad input, the size
// that did not fit, the call that failed); only main() turns them into exit codes (see exit_code_for).
// Internal invariants use assert(), not these.
#include <stdexcept>
#include <string>
#include <string_view>

namespace cosched {

enum class ErrorKind {
  usage,     // bad command-line arguments or options
  input,     // a file or value given by the user is malformed
  resource,  // the request does not fit: memory, cores, fast-tier capacity
  platform,  // hwloc / memkind / libnuma / the OS refused a call
  runtime,   // a task or measurement failed while running
};

// `text` with every control byte but tab written as \xNN: a message quoting a hostile file (an ESC sequence, a NUL,
// a newline) stays one line that cannot drive the terminal and is not cut at the NUL (issue #27).
[[nodiscard]] std::string printable(std::string_view text);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(printable(message)), kind_(kind) {}
  [[nodiscard]] ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

struct UsageError : Error {
  explicit UsageError(const std::string& message) : Error(ErrorKind::usage, message) {}
};

// Malformed input. `where` is "file:line" or "file: tasks[3].times[17]" — whatever locates the fault.
struct InputError : Error {
  InputError(const std::string& where, const std::string& message)
      : Error(ErrorKind::input, where.empty() ? message : where + ": " + message) {}
};

struct ResourceError : Error {
  explicit ResourceError(const std::string& message) : Error(ErrorKind::resource, message) {}
};

// A system or library call failed; `call` names it, errno text is appended when errno_value != 0.
struct PlatformError : Error {
  PlatformError(const std::string& call, const std::string& message, int errno_value = 0);
};

struct RuntimeFailure : Error {
  explicit RuntimeFailure(const std::string& message) : Error(ErrorKind::runtime, message) {}
};

// Process exit code for an error kind: usage 2, input 3, resource 4, platform 5, runtime 6.
[[nodiscard]] int exit_code_for(ErrorKind kind) noexcept;
[[nodiscard]] const char* to_string(ErrorKind kind) noexcept;

}  // namespace cosched
