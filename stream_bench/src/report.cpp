#include "cosched/stream/report.hpp"

#include <algorithm>

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
      {"preparation_s", result.preparation_s},
      {"validation_s", result.validation_s},
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
  // The figure of merit and the work of one rep, for every kernel (for STREAM kernels the merit is GB/s).
  json["merit_unit"] = result.merit_unit;
  json["best_merit"] = result.best_merit;
  json["median_merit"] = result.median_merit;
  json["mean_merit"] = result.mean_merit;
  json["worst_merit"] = result.worst_merit;
  json["flops_per_rep"] = result.flops_per_rep;
  json["updates_per_rep"] = result.updates_per_rep;
  json["problem"] = result.problem;
  nlohmann::json arrays = nlohmann::json::array();
  for (const ArrayBytes& array : result.arrays) arrays.push_back({{"name", array.name}, {"bytes", array.bytes}});
  json["arrays"] = arrays;
  if (result.sum) json["sum"] = *result.sum;
  if (!result.kernel_isa.empty()) json["kernel_isa"] = result.kernel_isa;
  if (result.emulated) json["emulation_ratio"] = result.slow_pass_factor;
  return json;
}

std::string format_report(const StreamResult& r) {
  constexpr double mib = 1 << 20;
  std::string text;
  auto line = [&text](std::string s) { text += std::move(s) + '\n'; };
  const bool elementwise = r.bytes_per_element > 0;
  std::vector<std::string> pus;
  for (const ThreadPlacement& p : r.placements) pus.push_back(fmt::format("{}", p.observed_pu));
  if (elementwise) {
    line(fmt::format("stream_bench: {}   {}   ({} bytes/element, STREAM counting, 1 GB/s = 1e9 B/s)", r.kernel,
                     r.formula, r.bytes_per_element));
    line(fmt::format("threads {} on cores [{}] (ran on PUs {}), {} array(s) x {:.1f} MiB, {} stores, {} reps, {} "
                     "loops",
                     r.threads, fmt::join(r.cores, ","), fmt::join(pus, ","), r.array_count,
                     static_cast<double>(r.array_bytes) / mib, r.stores, r.reps, r.kernel_isa));
  } else {
    std::vector<std::string> arrays;
    for (const ArrayBytes& array : r.arrays) {
      arrays.push_back(fmt::format("{} {:.1f} MiB", array.name, static_cast<double>(array.bytes) / mib));
    }
    line(fmt::format("stream_bench: {}   {}   ({}; per rep {} bytes, {} flops{})", r.kernel, r.formula, r.problem,
                     r.bytes_per_rep, r.flops_per_rep,
                     r.updates_per_rep > 0 ? fmt::format(", {} updates", r.updates_per_rep) : std::string()));
    line(fmt::format("threads {} on cores [{}] (ran on PUs {}), arrays: {}; {} reps", r.threads,
                     fmt::join(r.cores, ","), fmt::join(pus, ","), fmt::join(arrays, ", "), r.reps));
  }
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
  // The STREAM table's widths (10 and 12), widened for a longer unit.
  const std::string best = "best " + r.merit_unit;
  const std::string median = "median " + r.merit_unit;
  const std::size_t best_width = std::max<std::size_t>(10, best.size());
  const std::size_t median_width = std::max<std::size_t>(12, median.size());
  line(fmt::format("{:<8} {:>{}} {:>{}} {:>12} {:>12} {:>12} {:>12}", "kernel", best, best_width, median,
                   median_width, "min time s", "median s", "mean s", "max time s"));
  line(fmt::format("{:<8} {:>{}.2f} {:>{}.2f} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f}", r.kernel, r.best_merit,
                   best_width, r.median_merit, median_width, r.min_time_s, r.median_time_s, r.mean_time_s,
                   r.max_time_s));
  if (r.best_merit != r.best_gbs) {  // a merit that is not the byte rate: show the byte model's rate too
    line(fmt::format("memory traffic (byte model): best {:.2f} GB/s, median {:.2f} GB/s", r.best_gbs, r.median_gbs));
  }
  if (r.sum) line(fmt::format("sum = {}", *r.sum));
  line(r.validated ? std::string(elementwise ? "validation: passed (every element exact)" : "validation: passed")
                   : "VALIDATION FAILED: " + r.validation_message);
  return text;
}

}  // namespace cosched::stream
