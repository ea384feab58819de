#include "cosched/profiler/progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cosched::profiler {

ProgressReporter::ProgressReporter(std::size_t total, std::FILE* out, bool interactive)
    : total_(total), out_(out), interactive_(interactive), start_(std::chrono::steady_clock::now()) {}

std::string ProgressReporter::format_duration(double seconds) {
  const long total = std::lround(std::max(0.0, seconds));
  const long h = total / 3600, m = total % 3600 / 60, s = total % 60;
  if (h > 0) return fmt::format("{}h{:02}m", h, m);
  if (m > 0) return fmt::format("{}m{:02}s", m, s);
  return fmt::format("{}s", s);
}

void ProgressReporter::point_done(const ProfileRow& row) {
  ++done_;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double eta = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - std::min(done_, total_));
  const auto& p = row.point;
  const std::string what = fmt::format("{} {:.0f}MiB cores={} chunks={} {}", p.kernel,
                                       static_cast<double>(p.footprint_bytes) / (1024.0 * 1024.0), p.cores,
                                       p.chunks, row.ok() ? fmt::format("{:.4g}s", row.time_s) : "FAILED: " + row.status);
  if (interactive_) {
    constexpr int width = 30;
    const int filled = total_ == 0 ? width : static_cast<int>(width * done_ / total_);
    fmt::print(out_, "\r[{}{}] {}/{} ETA {:>6}  {:<48}", std::string(filled, '#'),
               std::string(width - filled, '.'), done_, total_, format_duration(eta), what);
  } else {
    fmt::print(out_, "{}/{} {} ETA {}\n", done_, total_, what, format_duration(eta));
  }
  std::fflush(out_);
}

void ProgressReporter::finish() {
  if (interactive_ && done_ > 0) fmt::print(out_, "\n");
  std::fflush(out_);
}

}  // namespace cosched::profiler
