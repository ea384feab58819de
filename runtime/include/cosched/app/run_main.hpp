#pragma once
// The one `main` of both executables (cosched, stream_bench): parses the command line, runs it, and turns every
// way it can end into the exit code the README documents — and nowhere else does a process exit code come from.
//   0 success (and --help / --version)   2 usage error (CLI11's parse and validation failures included)
//   3 bad input file   4 does not fit   5 platform call failed   6 a task or validation failed   70 internal error
// Standard output is flushed and checked before success is reported: output that could not be written (a full
// disk, a closed pipe) is an error.
#include <CLI/CLI.hpp>

#include <functional>
#include <initializer_list>
#include <string_view>

namespace cosched::app {

inline constexpr int kExitInternalError = 70;

// Parses argv with `app` (callbacks run inside the parse), then calls `after_parse` when given. `program` prefixes
// error messages ("cosched: input error: ...").
int run_main(CLI::App& app, int argc, char** argv, std::string_view program,
             const std::function<void()>& after_parse = {});

// A seed: a whole number in [0, 2^64 - 1], refused the same way by every command (CLI11 would wrap -1 around to
// 2^64 - 1 where nothing checks it; issue 41: plan accepted -1, online refused it).
[[nodiscard]] CLI::Validator seed_value();

// Refuses the options `names` of `sub` given on the command line when they do not apply to what was asked
// (`applies` false; issue 41: they were ignored silently): UsageError "<the options given>: <why>".
void refuse_unless_applies(const CLI::App& sub, std::initializer_list<const char*> names, bool applies,
                           std::string_view why);

// Option validators that, unlike CLI::Range, refuse NaN and infinities.
[[nodiscard]] CLI::Validator finite_range(double min, double max);   // [min, max]
[[nodiscard]] CLI::Validator finite_positive(double max);            // (0, max]

}  // namespace cosched::app
