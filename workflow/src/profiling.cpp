// The pipelines that learn a node and its tasks (cosched/workflow/profiling.hpp).
#include "cosched/workflow/profiling.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/profile_session.hpp"
#include "cosched/profiler/traffic.hpp"
#include "cosched/sched/io.hpp"

namespace cosched::workflow {

void run_calibrate(const CalibrateOptions& options, Reporter& reporter) {
  const auto overwrite = overwrite_if_forced(options.force);
  check_output_path(options.output, overwrite, "node file");
  profiler::check_calibration_options(options.calibration);  // before the output is touched or anything measured
  const auto previous = profiler::previous_calibration(options.compare, options.output);

  const profiler::Calibration calibration = profiler::calibrate(options.calibration, reporter);
  write_text_file(options.output, config::to_toml(calibration.model), overwrite, "node file");
  std::string text = profiler::calibration_table(calibration);
  text += fmt::format("node model of {} in {:.1f} s (load average {:.2f} on {} cores at the start{}){}\n",
                      calibration.model.provenance.host, calibration.wall_s, calibration.load_average,
                      calibration.allowed_cores,
                      calibration.machine_was_busy() ? ": BUSY, the curves are what other work left" : "",
                      options.output == "-" ? "" : ", written to " + options.output);
  nlohmann::json data = {{"node", calibration.model}, {"wall_s", calibration.wall_s},
                         {"load_average", calibration.load_average}, {"allowed_cores", calibration.allowed_cores}};
  if (previous) {
    const auto agreement = profiler::compare_calibrations(previous->second, calibration.model, options.tolerance);
    text += profiler::agreement_table(agreement, previous->first);
    data["agrees_with_previous"] = agreement.agrees();
  }
  reporter.result({"calibration", std::move(text), std::move(data)});
}

void run_profile(const ProfileOptions& options, Reporter& reporter) {
  // Before any work: the CSV is a file in an existing folder, and an existing one is continued (--resume) or
  // replaced (--force) only when asked.
  check_output_path(options.output, Overwrite::replace, "profile CSV");
  if (!options.resume && !options.force && std::filesystem::is_regular_file(options.output)) {
    throw UsageError(options.output + ": exists; --resume continues it, --force replaces it");
  }
  const profiler::SweepConfig sweep = profiler::sweep_from_overrides(options.sweep);
  const config::PlatformConfig platform = profiler::resolve_sweep_platform(sweep);
  profiler::ProfileRunOptions run;
  run.output = options.output;
  run.resume = options.resume;
  run.force = options.force;
  // A model sweep takes milliseconds: a progress line per point would only be noise.
  const bool measures = !profiler::measurer_kind(sweep.measurer).is_model();
  run.reporter = measures ? &reporter : nullptr;
  const auto outcome = profiler::run_profile(sweep, platform, run);
  reporter.result({"profile-summary", profiler::format_profile_summary(sweep, outcome, options.output, measures),
                   {{"measured", outcome.measured},
                    {"skipped", outcome.skipped},
                    {"failed", outcome.failures.size()},
                    {"interrupted", outcome.interrupted},
                    {"wall_s", outcome.wall_s}}});
  if (!outcome.failures.empty()) {
    throw RuntimeFailure(fmt::format("{} of {} points failed (first: {}); their rows in {} are marked failed, "
                                     "without a time",
                                     outcome.failures.size(), outcome.measured, outcome.failures.front(),
                                     options.output));
  }
  if (outcome.interrupted && outcome.measured + outcome.skipped == 0) {
    throw RuntimeFailure(
        fmt::format("interrupted before the first point finished: {} was not written", options.output));
  }
  if (outcome.interrupted) {
    throw RuntimeFailure(fmt::format("interrupted: {} holds every finished point; run the same command with "
                                     "--resume to continue",
                                     options.output));
  }
}

void run_instance(const InstanceOptions& options, Reporter& reporter) {
  const auto overwrite = overwrite_if_forced(options.force);
  check_output_path(options.output, overwrite, "instance");
  const auto platform = config::load_platform_config(options.platform);
  const auto workload = exec::read_workload(options.workload, platform);
  const std::vector<std::filesystem::path> paths(options.profiles.begin(), options.profiles.end());
  std::optional<profiler::NodeBandwidth> bandwidth;
  if (!options.node.empty()) {
    const auto node = config::load_node_model(options.node);
    (void)config::check_node_model_age(node, reporter);
    bandwidth = profiler::node_bandwidth(node);
  }
  const profiler::ProfileSet profiles = profiler::load_profile_set(paths);
  const auto instance = profiler::build_instance(workload, profiles, platform, bandwidth ? &*bandwidth : nullptr);
  write_text_file(options.output, sched::instance_to_json(instance) + "\n", overwrite, "instance");
  // Kernel tasks run as processes when launched: a profile without fixed costs predicts them too short (issue #24).
  if (const std::string note = profiler::fixed_cost_note(workload, profiles); !note.empty()) {
    reporter.note(note.substr(0, note.size() - (note.back() == '\n' ? 1 : 0)));
  }
  for (const std::string& line : profiler::probed_traffic_lines(instance)) reporter.note("traffic: " + line);
  if (options.output == "-") return;
  reporter.note(fmt::format("instance: {} tasks, resources cores={} fast_chunks={}, {}, into {}",
                            instance.task_count(), platform.cores, platform.fast_chunks,
                            bandwidth ? fmt::format("memory pools of {} with every task's traffic", options.node)
                                      : std::string("no bandwidth model (--node FILE from `cosched calibrate` adds "
                                                    "one)"),
                            options.output));
}

}  // namespace cosched::workflow
