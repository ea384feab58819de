#include "cosched/launcher/journal/inputs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cosched/common/digest.hpp"

namespace cosched::launcher {

using nlohmann::json;

namespace {

InputStamp stamp(const json& canonical, std::string summary) {
  return {digest_text(canonical.dump()), std::move(summary)};
}

json resources_of(const sim::LaunchPlan& plan) {
  json resources = json::array();
  for (std::size_t i = 0; i < plan.capacities.size(); ++i) {
    resources.push_back({plan.resource_names.at(i), plan.capacities[i]});
  }
  return resources;
}

std::string resources_text(const sim::LaunchPlan& plan) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < plan.capacities.size(); ++i) {
    parts.push_back(fmt::format("{}={}", plan.resource_names.at(i), plan.capacities[i]));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

InputStamp schedule_stamp(const sim::LaunchPlan& plan) {
  json tasks = json::array();
  for (const sim::PlannedTask& task : plan.tasks) {
    tasks.push_back({{"id", task.id},
                     {"alloc", task.demand},
                     {"planned_start", task.planned_start},
                     {"predicted_duration", task.predicted_duration},
                     {"pack", task.pack}});
  }
  json canonical = {{"algorithm", plan.algorithm}, {"resources", resources_of(plan)}, {"tasks", tasks}};
  std::string summary = fmt::format("algorithm {}, {} tasks on {}, planned makespan {:.6g} s", plan.algorithm,
                                    plan.tasks.size(), resources_text(plan), plan.predicted_makespan());
  // A closed-loop replay's releases wait for earlier work (issue 41: a resume without --replay closed ran the
  // rest open loop, silently). Only plans with gates carry them, so every other plan's digest stays what it was.
  if (!plan.gates.empty()) {
    json gates = json::array();
    for (const sim::ReleaseGate& gate : plan.gates) {
      gates.push_back({{"follows", gate.follows == sim::kNoGate ? json(nullptr) : json(gate.follows)},
                       {"tasks", gate.tasks}});
    }
    canonical["gates"] = std::move(gates);
    std::size_t gated = 0;
    for (std::size_t k = 0; k < plan.tasks.size(); ++k) {
      if (plan.tasks[k].gate == sim::kNoGate) continue;
      canonical["tasks"][k]["gate"] = plan.tasks[k].gate;
      ++gated;
    }
    summary += fmt::format(", {} releases waiting for earlier work (closed-loop replay)", gated);
  } else if (plan.is_online()) {
    summary += ", every job at its release (open-loop replay)";
  }
  return stamp(canonical, std::move(summary));
}

InputStamp workload_stamp(const sim::LaunchPlan& plan, const config::Workload& workload) {
  json tasks = json::array();
  std::size_t stream_tasks = 0;
  for (const sim::PlannedTask& planned : plan.tasks) {
    const config::WorkloadTask& task = workload.find(planned.id);
    if (task.is_stream()) ++stream_tasks;
    json entry;
    config::to_json(entry, task);  // the workload schema's one writer: a new field is in the digest at once
    tasks.push_back(std::move(entry));
  }
  return stamp(tasks, fmt::format("{} ({} STREAM tasks, {} commands)", workload.source, stream_tasks,
                                  plan.tasks.size() - stream_tasks));
}

InputStamp platform_stamp(const sim::LaunchPlan& plan, const exec::TierSetup& tier) {
  json canonical = {{"resources", resources_of(plan)}, {"chunk_bytes", tier.chunk_bytes}, {"backend", tier.backend}};
  std::string summary = fmt::format("{}, chunks of {:.6g} MiB, tier backend {}", resources_text(plan),
                                    tier.chunk_bytes / (1024.0 * 1024.0), tier.backend);
  // The ratio only changes what runs where the tier is emulated.
  if (tier.emulated()) {
    canonical["emulation_ratio"] = tier.emulation_ratio;
    summary += fmt::format(" (emulation ratio {})", tier.emulation_ratio);
  }
  return stamp(canonical, std::move(summary));
}

}  // namespace

BatchInputs batch_inputs(const sim::LaunchPlan& plan, const config::Workload& workload, const exec::TierSetup& tier) {
  return {schedule_stamp(plan), workload_stamp(plan, workload), platform_stamp(plan, tier)};
}

std::vector<std::string> input_differences(const BatchInputs& journal, const BatchInputs& now) {
  std::vector<std::string> differences;
  const auto compare = [&](const char* name, const InputStamp& was, const InputStamp& is) {
    if (was.digest == is.digest) return;
    differences.push_back(fmt::format("{}: the journal was written for {} ({}), this launch has {} ({})", name,
                                      was.summary, was.digest, is.summary, is.digest));
  };
  compare("schedule", journal.schedule, now.schedule);
  compare("workload", journal.workload, now.workload);
  compare("platform", journal.platform, now.platform);
  return differences;
}

}  // namespace cosched::launcher
