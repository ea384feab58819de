#include "cosched/launcher/run_folder.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "cosched/common/error.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/launcher/report.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sched/io.hpp"

namespace cosched::launcher {

namespace {

// What a dry run leaves: a plan, which a new run replaces.
const std::set<std::string> kPlanFiles{"platform.toml", "instance.json", "schedule.json"};
constexpr std::string_view kMarker = ".cosched-run";

// Whether `dir` holds nothing but the marker (or nothing at all).
bool holds_only_marker(const std::filesystem::path& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().filename() != kMarker) return false;
  }
  return !error;
}

// Whether the folder's journal says its run ended (a journal that cannot be read is not a finished run: the folder
// is then check_run_folder's to refuse, with the reason).
bool holds_finished_run(const RunFolder& folder) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(folder.journal(), error)) return false;
  try {
    return summarize_journal(folder.journal()).finished;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

std::filesystem::path RunFolder::cluster_plan() const { return dir / sched::kDemoPlanFolder; }

std::filesystem::path RunFolder::marker() const { return dir / kMarker; }

RunFolder default_run_folder(const std::filesystem::path& batch, bool resume, bool force) {
  const std::string base = "cosched-run-" + batch.stem().string();
  const auto numbered = [&](int n) {
    return RunFolder{std::filesystem::current_path() / (n == 1 ? base : fmt::format("{}-{}", base, n))};
  };
  // A bound on the search only: a user with this many finished runs of one batch here names --output.
  constexpr int kMostNumbered = 100000;
  for (int n = 1; n < kMostNumbered; ++n) {
    const RunFolder folder = numbered(n);
    std::error_code error;
    if (!std::filesystem::exists(folder.dir, error)) return resume || force ? numbered(std::max(1, n - 1)) : folder;
    if (!holds_finished_run(folder)) return folder;
  }
  return numbered(kMostNumbered);
}

void check_run_folder(const RunFolder& folder, bool resume, bool force, bool slurm) {
  std::error_code error;
  const auto status = std::filesystem::status(folder.dir, error);
  const bool exists = std::filesystem::exists(status);
  if (exists && !std::filesystem::is_directory(status)) {
    throw UsageError(fmt::format("--output {} is not a folder: a run writes a folder (its plan and journal)",
                                 folder.dir.string()));
  }
  if (resume) {
    const auto plan = slurm ? folder.cluster_plan() : folder.schedule();
    for (const auto& needed : {folder.platform(), folder.instance(), plan}) {
      if (!std::filesystem::exists(needed, error)) {
        throw UsageError(fmt::format("--resume: {} is missing: {} holds no run to continue (start one without "
                                     "--resume)",
                                     needed.string(), folder.dir.string()));
      }
    }
    return;
  }
  if (!exists) {
    const auto parent = std::filesystem::absolute(folder.dir).parent_path();
    if (!std::filesystem::is_directory(parent, error)) {
      throw UsageError(fmt::format("--output {}: its folder {} does not exist", folder.dir.string(), parent.string()));
    }
    return;
  }
  if (force) return;
  const bool a_runs = std::filesystem::exists(folder.marker(), error);
  for (const auto& entry : std::filesystem::directory_iterator(folder.dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name == kMarker || (a_runs && kPlanFiles.contains(name))) continue;
    if (!a_runs) {
      throw UsageError(fmt::format("{} holds {} and is not a cosched run's folder (it has no {}): a run replaces "
                                   "files there only with --force; name another --output",
                                   folder.dir.string(), name, kMarker));
    }
    throw UsageError(fmt::format("{} already holds {}: pass --resume to continue its run, --force to start it over, "
                                 "or name another --output",
                                 folder.dir.string(), name));
  }
}

RunFolderClaim::RunFolderClaim(const RunFolder& folder, bool resume, bool force, bool slurm) : folder_(folder) {
  check_run_folder(folder, resume, force, slurm);
  std::error_code error;
  made_folder_ = std::filesystem::create_directory(folder.dir, error);
  if (error) throw PlatformError("mkdir", folder.dir.string(), error.value());
  try {
    made_marker_ = !std::filesystem::exists(folder.marker(), error);
    std::string holder;
    lock_ = FileLock::try_acquire(folder.marker(), holder);
    if (!lock_) {
      made_marker_ = false;  // the holder's
      throw UsageError(fmt::format("{} is in use by another cosched run: {} holds it ({}); wait for it to end or "
                                   "stop it (a run that died released it)",
                                   folder.dir.string(), holder, folder.marker().string()));
    }
    // Under the lock, the folder as the run will find it: what another run left there before it let go.
    check_run_folder(folder, resume, force, slurm);
  } catch (...) {
    release();
    throw;
  }
}

RunFolderClaim::~RunFolderClaim() { release(); }

void RunFolderClaim::release() noexcept {
  std::error_code ignored;
  // The marker goes while still locked: nobody can take the folder between its removal and the lock's end.
  if (made_marker_ && lock_ && holds_only_marker(folder_.dir)) std::filesystem::remove(folder_.marker(), ignored);
  lock_.reset();
  if (made_folder_) std::filesystem::remove(folder_.dir, ignored);  // only when empty
}

void write_run_plan(const RunFolder& folder, const config::PlatformConfig& platform, const sched::Instance& instance,
                    const sched::Schedule* schedule) {
  std::error_code error;
  std::filesystem::create_directories(folder.dir, error);
  if (error) throw PlatformError("mkdir", folder.dir.string(), error.value());
  write_text_file(folder.platform(), config::to_toml(platform), Overwrite::replace, "platform file");
  write_text_file(folder.instance(), sched::instance_to_json(instance) + "\n", Overwrite::replace, "instance");
  if (schedule != nullptr) {
    write_text_file(folder.schedule(), sched::schedule_to_json(instance, *schedule) + "\n", Overwrite::replace,
                    "schedule");
  }
}

LaunchInputs read_run_plan(const RunFolder& folder) {
  const config::PlatformConfig platform = config::load_platform_config(folder.platform());
  return read_launch_inputs({folder.schedule(), folder.instance(), folder.instance()}, platform, platform);
}

LaunchInputs run_plan_inputs(const RunFolder& folder, const sched::Instance& instance,
                             const sched::Schedule& schedule) {
  LaunchInputs inputs;
  inputs.plan = sim::plan_from_schedule(instance, schedule);
  inputs.workload = exec::workload_of_instance(instance, folder.instance().string(), exec::stream_kernel_names());
  inputs.instance_given = true;
  return inputs;
}

void check_same_batch(const config::Workload& batch, const config::Workload& planned, const RunFolder& folder) {
  const auto differs = [&](const std::string& what) {
    return InputError(folder.instance().string(),
                      fmt::format("the batch is not the one this run planned: {}; start it over with --force, or "
                                  "give the batch it was started with",
                                  what));
  };
  if (batch.tasks.size() != planned.tasks.size()) {
    throw differs(fmt::format("{} tasks now, {} planned", batch.tasks.size(), planned.tasks.size()));
  }
  for (const config::WorkloadTask& task : batch.tasks) {
    const auto same = std::find_if(planned.tasks.begin(), planned.tasks.end(),
                                   [&](const config::WorkloadTask& other) { return other.id == task.id; });
    if (same == planned.tasks.end()) throw differs(fmt::format("task \"{}\" was not planned", task.id));
    if (nlohmann::json(task) != nlohmann::json(*same)) {
      throw differs(fmt::format("task \"{}\" is {} now, {} when planned", task.id, nlohmann::json(task).dump(),
                                nlohmann::json(*same).dump()));
    }
  }
}

}  // namespace cosched::launcher
