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

// How much of a user's input a message quotes (a program name, a value, an id): a longer one is cut in its middle.
inline constexpr std::size_t kEchoLimit = 200;
// How long one error line may be, whatever it quotes (a safety net under kEchoLimit: CLI11 quotes values whole).
inline constexpr std::size_t kMessageLimit = 4096;
// `text` as a message quotes it (issue 41: a 60 MB program name was echoed whole into one 62.9 MB line): printable,
// and when longer than `limit` its head and tail with the middle replaced by "[... N bytes ...]" — never a UTF-8
// character cut in two. Every message quoting user input goes through it; Error applies kMessageLimit to the whole.
[[nodiscard]] std::string bounded_echo(std::string_view text, std::size_t limit = kEchoLimit);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message)
      : std::runtime_error(bounded_echo(message, kMessageLimit)), kind_(kind) {}
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
