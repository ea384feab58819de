#pragma once
// Sweep progress for a person: on a terminal a bar redrawn in place with the ETA; otherwise (a log, a pipe) one
// plain line per point so the output stays readable.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

class ProgressReporter {
 public:
  // `total` points to measure in this run; `interactive` usually isatty(fileno(out)).
  ProgressReporter(std::size_t total, std::FILE* out, bool interactive);
  void point_done(const ProfileRow& row);
  void finish();

  // "1h02m", "3m05s", "12s": the ETA format, exposed for tests.
  [[nodiscard]] static std::string format_duration(double seconds);

 private:
  std::size_t total_;
  std::size_t done_ = 0;
  std::FILE* out_;
  bool interactive_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cosched::profiler
