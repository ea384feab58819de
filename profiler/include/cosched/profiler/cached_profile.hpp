#pragma once
// A batch profiled through the profile cache, as `cosched run` does it (docs/profiler.md, "The profile cache"):
// under the node's cache lock, the node model is taken from --node, or the cache's (calibrated when it is missing
// or stale, said out loud); then every task type of the batch — a STREAM kernel at a footprint, a distinct command
// — is looked up, and only what the cache lacks, or holds stale, foreign or corrupt, is measured as launched
// (launched_profile.hpp: STREAM tasks at two pass counts so that any passes are predicted, commands once per
// point) and stored. The batch's profile is then what the entries hold.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/config/node_model.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/profiler/calibration.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/profiler/launched_profile.hpp"
#include "cosched/profiler/profile_cache.hpp"

namespace cosched::profiler {

struct CachedProfileOptions {
  LaunchedProfileOptions launched;       // the node, its tier, stream_bench, reps per point, progress
  std::optional<std::filesystem::path> node_file;  // --node: this model, never calibrated
  CalibrationOptions calibration;        // when the cache's node model is missing or stale
  bool reprofile = false;                // measure every task type again (--reprofile)
  Reporter* reporter = nullptr;          // what is used and what is measured, and why; null: nothing

  // What `cosched run` profiles with: the batch launched as it will run on `platform` with `tier` (stream_bench
  // beside this executable, `reps` timed runs per point), a missing or stale node model calibrated quickly with
  // the same backend, its progress and what is used reported to `reporter`.
  [[nodiscard]] static CachedProfileOptions for_run(const config::PlatformConfig& platform,
                                                    const exec::TierSetup& tier, unsigned reps, Reporter& reporter);
};

// The node model of `node_file` (--node) or, without one, the cache's when it is there and fresh; never calibrates.
// nullopt when there is none to use, with the reason in `origin` (else where the model came from).
[[nodiscard]] std::optional<config::NodeModel> known_node_model(const ProfileCache& cache,
                                                                const std::optional<std::filesystem::path>& node_file,
                                                                std::string& origin);

// The same, calibrated (quickly, said to options.reporter) and stored in the cache when there is none to use.
[[nodiscard]] config::NodeModel node_model_through_cache(const ProfileCache& cache,
                                                         const CachedProfileOptions& options, std::string& origin);

// One task type of the batch and what the cache said of it.
struct TaskTypeProfile {
  std::string name;     // the STREAM kernel at its footprint, or the command's profile name
  CachedTask task;
  CacheState state = CacheState::miss;  // hit: used as it was; anything else: measured in this call
  std::string reason;                   // why it was measured ("--reprofile", a lookup's reason)
};

struct CachedProfile {
  config::Workload workload;         // the batch; each command's `profile` names its rows in `profiles`
  config::NodeModel node;            // the node model the entries are measured under
  std::string node_origin;           // where the model came from, in words
  ProfileSet profiles;
  std::vector<TaskTypeProfile> types;
  [[nodiscard]] std::size_t measured() const;  // task types measured in this call
};

// The node model in use and the profiles of `workload` (see above). Throws like the calibration and the
// measurers; RuntimeFailure naming the first failed point when a command's run failed (the entries of every
// other task type measured are stored first; a command with a failed point is not).
[[nodiscard]] CachedProfile profile_through_cache(config::Workload workload, const ProfileCache& cache,
                                                  const CachedProfileOptions& options);

// The batch's instance from its profile: the platform's cores and fast chunks, the node's memory pools and every
// STREAM task's traffic; cores only when every task is a command and the tier cannot give a command fast memory
// (its profile then varies cores only).
[[nodiscard]] sched::Instance batch_instance(const CachedProfile& profile, const config::PlatformConfig& platform,
                                             bool tier_places_commands);

}  // namespace cosched::profiler
