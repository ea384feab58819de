#pragma once
// A command to profile (`cosched profile --command`, `[[commands]]` in a sweep TOML): any program, run as the
// launcher runs a command task (the same placeholders {threads}, {cpuset}, {cores}, {fast_bytes}; pinned to its
// cores; its fast share given by a placement mechanism, platform/command_placement.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::profiler {

inline constexpr std::size_t kMaxProfiledCommands = 1000;

struct CommandProfileSpec {
  std::string name;                       // an identifier; its rows are kernel "command:<name>"
  std::vector<std::string> argv;          // placeholders allowed (config::check_command)
  std::vector<std::string> environment;   // NAME=VALUE set for it
  std::optional<double> timeout_s;        // a run longer than this is killed and its point marked "timeout"
  std::uint64_t footprint_bytes = 0;      // what its fast fraction is of (0: not given)
  friend bool operator==(const CommandProfileSpec&, const CommandProfileSpec&) = default;
};

// How commands get fast memory (`--placement`, `placement` in the sweep file).
struct CommandPlacementOptions {
  std::string mechanism = "preferred";    // platform::command_placement_names()
  std::size_t autohbw_threshold_bytes = 1 << 20;
  std::string autohbw_library;            // empty: searched
};

// Splits a command line into argv like a POSIX shell does words, without expanding anything: blanks separate
// words, '...' keeps everything literally, "..." keeps everything but \" and \\, a backslash outside quotes
// escapes the next character. Throws InputError(where, ...) for an unterminated quote or an empty line.
[[nodiscard]] std::vector<std::string> split_command_line(std::string_view line, const std::string& where);

// The name a command gets without --name: its program's file name, made an identifier.
[[nodiscard]] std::string default_command_name(const std::vector<std::string>& argv);

}  // namespace cosched::profiler
