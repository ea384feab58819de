#pragma once
// Internal invariants that stay checked in Release builds. assert() is the rule for invariants (docs/errors.md),
// but where a violated one would not crash but hang — a scheduling loop waiting for a completion that never comes —
// a check compiled out turns a bug into a process that never ends (issue #27: an off-by-one in `fits` showed up as a
// hang, not a failure). A violation is a bug: std::logic_error, which run_main reports as an internal error (70).
#include <stdexcept>
#include <string>
#include <string_view>

namespace cosched {

// The caller's file and line come from __builtin_FILE / __builtin_LINE (gcc and clang alike): the clang that
// builds the fuzzers (scripts/fuzz.sh) has no std::source_location with this libstdc++.
inline void check_invariant(bool holds, std::string_view what, const char* file = __builtin_FILE(),
                            int line = __builtin_LINE()) {
  if (!holds) [[unlikely]] {
    throw std::logic_error(std::string(file) + ":" + std::to_string(line) +
                           ": internal invariant violated: " + std::string(what));
  }
}

}  // namespace cosched
