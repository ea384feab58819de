#include "cosched/stream/report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cosched::stream {

nlohmann::json to_json(const StreamResult& result) {
  nlohmann::json placements = nlohmann::json::array();
  for (const ThreadPlacement& placement : result.placements) {
    placements.push_back({{"thread", placement.thread},
                          {"core", placement.core},
                          {"core_pus", placement.core_pus},
                          {"bound_pus", placement.bound_pus},
                          {"observed_pu", placement.observed_pu}});
  }
  nlohmann::json json{
      {"kernel", result.kernel},
      {"formula", result.formula},
      {"threads", result.threads},
      {"cores", result.cores},
      {"placements", placements},
      {"array_bytes", result.array_bytes},
      {"array_count", result.array_count},
      {"bytes_per_element", result.bytes_per_element},
      {"bytes_per_rep", result.bytes_per_rep},
      {"reps", result.reps},
      {"stores", result.stores},
      {"rep_times_s", result.rep_times_s},
      {"min_time_s", result.min_time_s},
      {"median_time_s", result.median_time_s},
      {"mean_time_s", result.mean_time_s},
      {"max_time_s", result.max_time_s},
      {"best_gbs", result.best_gbs},
      {"median_gbs", result.median_gbs},
      {"mean_gbs", result.mean_gbs},
      {"worst_gbs", result.worst_gbs},
      {"validated", result.validated},
      {"validation_message", result.validation_message},
      {"fast_fraction", result.fast_fraction},
      {"tier_backend", result.tier_backend},
      {"emulated", result.emulated},
      {"slow_pass_factor", result.slow_pass_factor},
      {"fast_bytes", result.fast_bytes},
      {"slow_bytes", result.slow_bytes},
  };
  if (result.sum) json["sum"] = *result.sum;
  if (result.emulated) json["emulation_ratio"] = result.slow_pass_factor;
  return json;
}

std::string format_report(const StreamResult& r) {
  constexpr double mib = 1 << 20;
  std::string text;
  auto line = [&text](std::string s) { text += std::move(s) + '\n'; };
  line(fmt::format("stream_bench: {}   {}   ({} bytes/element, STREAM counting, 1 GB/s = 1e9 B/s)", r.kernel,
                   r.formula, r.bytes_per_element));
  std::vector<std::string> pus;
  for (const ThreadPlacement& p : r.placements) pus.push_back(fmt::format("{}", p.observed_pu));
  line(fmt::format("threads {} on cores [{}] (ran on PUs {}), {} array(s) x {:.1f} MiB, {} stores, {} reps",
                   r.threads, fmt::join(r.cores, ","), fmt::join(pus, ","), r.array_count,
                   static_cast<double>(r.array_bytes) / mib, r.stores, r.reps));
  if (r.emulated) {
    line(fmt::format("EMULATED fast tier ({} backend): fast fraction {:.3f}, slow part streamed {:.2f}x per rep; "
                     "{:.1f} MiB fast, {:.1f} MiB slow",
                     r.tier_backend, r.fast_fraction, r.slow_pass_factor, static_cast<double>(r.fast_bytes) / mib,
                     static_cast<double>(r.slow_bytes) / mib));
  } else {
    line(fmt::format("tier backend {}: fast fraction {:.3f}; {:.1f} MiB fast, {:.1f} MiB slow", r.tier_backend,
                     r.fast_fraction, static_cast<double>(r.fast_bytes) / mib,
                     static_cast<double>(r.slow_bytes) / mib));
  }
  line(fmt::format("{:<8} {:>10} {:>12} {:>12} {:>12} {:>12} {:>12}", "kernel", "best GB/s", "median GB/s",
                   "min time s", "median s", "mean s", "max time s"));
  line(fmt::format("{:<8} {:>10.2f} {:>12.2f} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f}", r.kernel, r.best_gbs,
                   r.median_gbs, r.min_time_s, r.median_time_s, r.mean_time_s, r.max_time_s));
  if (r.sum) line(fmt::format("sum = {}", *r.sum));
  line(r.validated ? std::string("validation: passed (every element exact)")
                   : "VALIDATION FAILED: " + r.validation_message);
  return text;
}

}  // namespace cosched::stream
