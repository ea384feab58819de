#include "cosched/launcher/run_folder.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "cosched/common/error.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sched/io.hpp"

namespace cosched::launcher {

namespace {

// What a dry run leaves: a plan, which a new run replaces.
const std::set<std::string> kPlanFiles{"platform.toml", "instance.json", "schedule.json"};

}  // namespace

std::filesystem::path RunFolder::cluster_plan() const { return dir / sched::kDemoPlanFolder; }

RunFolder default_run_folder(const std::filesystem::path& batch) {
  return {std::filesystem::current_path() / ("cosched-run-" + batch.stem().string())};
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
  for (const auto& entry : std::filesystem::directory_iterator(folder.dir, error)) {
    const std::string name = entry.path().filename().string();
    if (kPlanFiles.contains(name)) continue;
    throw UsageError(fmt::format("{} already holds {}: pass --resume to continue its run, --force to start it over, "
                                 "or name another --output",
                                 folder.dir.string(), name));
  }
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
