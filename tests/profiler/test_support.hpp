#pragma once
// Helpers of the profiler tests: a deterministic measurer that counts its calls (scratch folders and files come
// from the shared tests/support/files.hpp).
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/profiler/measurer.hpp"
#include "support/files.hpp"

namespace cosched::profiler::testing {

using test_support::read_text;
using test_support::scratch_dir;
using test_support::write_file;

// A node of `cores` cores without a fast tier.
inline config::PlatformConfig cores_only_platform(unsigned cores) {
  config::PlatformConfig platform;
  platform.name = "test";
  platform.cores = cores;
  platform.tier_backend = "none";
  return platform;
}

// A command task of the batch (`work`: how its work scales, when its argv holds {work}).
inline config::WorkloadTask command_task(const std::string& id, std::vector<std::string> argv,
                                         std::optional<config::WorkScale> work = std::nullopt) {
  config::WorkloadTask task;
  task.id = id;
  task.command = std::move(argv);
  task.work = std::move(work);
  return task;
}

// Times t = footprint_MiB / cores * (2 - chunks/20) + rep * 1e-3: distinct per point and per rep, so a wrong
// row or a mixed-up median shows. Can raise `stop` after a number of calls to act like a Ctrl-C.
class CountingMeasurer final : public PointMeasurer {
 public:
  unsigned calls = 0;
  unsigned finishes = 0;
  unsigned stop_after = 0;  // 0: never
  std::atomic<bool>* stop = nullptr;
  unsigned fail_at = 0;     // this call throws a ResourceError (as a point that does not fit would); 0: never
  unsigned note_at = 0;     // this call's measurement has a note (Measurement::note); 0: never

  std::string_view name() const override { return "counting"; }
  void check_kernel(const std::string&) const override {}
  Measurement measure(const ProfilePoint& p) override {
    ++calls;
    if (stop != nullptr && calls == stop_after) stop->store(true);
    if (calls == fail_at) throw ResourceError("fast tier over-committed (a test measurer)");
    const double base = static_cast<double>(p.footprint_bytes) / (1 << 20) / p.cores * (2.0 - p.chunks / 20.0);
    Measurement m;
    for (int rep = 0; rep < 3; ++rep) m.times_s.push_back(base + rep * 1e-3);
    m.overhead_free_s = 3 * base;
    if (calls == note_at) m.note = "note " + std::to_string(calls);
    return m;
  }
  void finish() override { ++finishes; }
  nlohmann::json describe() const override { return {{"measurer", "counting"}}; }
};

}  // namespace cosched::profiler::testing
