#include "cosched/profiler/progress.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cosched::profiler {

SweepProgress::SweepProgress(std::size_t total, Reporter& reporter)
    : total_(total), reporter_(reporter), start_(std::chrono::steady_clock::now()) {}

void SweepProgress::point_done(const ProfileRow& row) {
  ++done_;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const auto& p = row.point;
  Progress progress;
  progress.operation = "profile";
  progress.style = ProgressStyle::counter;
  progress.done = done_;
  progress.total = total_;
  progress.elapsed_s = elapsed;
  progress.eta_s = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - std::min(done_, total_));
  progress.event = fmt::format("{} {:.0f}MiB cores={} chunks={} {}", p.kernel,
                               static_cast<double>(p.footprint_bytes) / (1024.0 * 1024.0), p.cores, p.chunks,
                               row.ok() ? fmt::format("{:.4g}s", row.time_s) : "FAILED: " + row.status);
  progress.fields = {{"kernel", p.kernel}, {"footprint_bytes", p.footprint_bytes}, {"cores", p.cores},
                     {"chunks", p.chunks},  {"status", row.status}};
  if (row.ok()) progress.fields["time_s"] = row.time_s;
  reporter_.progress(progress);
}

void SweepProgress::finish() { reporter_.progress_done("profile"); }

}  // namespace cosched::profiler
