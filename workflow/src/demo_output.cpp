#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdlib.h>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/launcher/journal/recorder.hpp"
#include "cosched/launcher/run_comparison.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/utc_time.hpp"
#include "demo_setup.hpp"

namespace cosched::workflow::demo {

std::string describe_demo_node(const DemoSetup& setup) {
  return fmt::format("{} cores, fast tier {} MiB in {} chunks, tier backend {}{}", setup.platform.cores,
                     setup.platform.fast_capacity_bytes >> 20, setup.platform.fast_chunks, setup.tier.backend,
                     setup.tier.emulated()
                         ? fmt::format(" — EMULATED (slow tier streamed {}x; no real fast memory here)",
                                       setup.tier.emulation_ratio)
                         : "");
}

std::vector<launcher::ComparedRun> compared_runs(const std::vector<RunRow>& rows) {
  std::vector<launcher::ComparedRun> runs;
  for (const auto& row : rows) {
    runs.push_back({row.configuration, row.algorithm, row.planned, row.scheduling_s, row.journal, &row.report});
  }
  return runs;
}

namespace {

// The reports of the rows with cores and fast memory scheduled: what the fidelity figures are over.
std::vector<const launcher::JournalReport*> cores_and_fast_reports(const std::vector<RunRow>& rows) {
  std::vector<const launcher::JournalReport*> reports;
  for (const auto& row : rows) {
    if (row.configuration == "cores+fast") reports.push_back(&row.report);
  }
  return reports;
}

// A run's row in results.json: the journal report as `cosched report --json` writes it (without its per-task
// list: runs/<configuration>-<algorithm>.jsonl has it), and what only the demo knows.
nlohmann::json row_json(const RunRow& row) {
  nlohmann::json json = launcher::to_json(row.report);
  json.erase("tasks");
  json["configuration"] = row.configuration;
  json["planned_makespan"] = row.planned;
  json["scheduling_time_s"] = row.scheduling_s;
  json["tasks_ok"] = row.tasks_ok();
  json["tasks_failed"] = row.tasks_failed();
  json["journal"] = row.journal.string();
  return json;
}

// Where the plotting scripts are: the folder given; else next to an installed executable
// (<prefix>/bin/../share/cosched/scripts, cmake/Install.cmake); else the scripts/ of the source tree it was built
// from.
std::filesystem::path plot_scripts_dir(const std::filesystem::path& given) {
  if (!given.empty()) return given;
  if (const auto self = own_executable()) {
    std::error_code error;
    const auto installed = (self->parent_path() / ".." / "share" / "cosched" / "scripts").lexically_normal();
    if (std::filesystem::is_directory(installed, error)) return installed;
  }
#ifdef COSCHED_DEMO_SCRIPTS_DIR
  return COSCHED_DEMO_SCRIPTS_DIR;
#else
  return {};
#endif
}

// Runs a plotting script with /usr/bin/python3 (matplotlib lives there, not in a pyenv python on PATH).
std::string plot(const DemoSetup& setup, const std::string& script, const std::vector<std::string>& args) {
  const auto path = plot_scripts_dir(setup.options.scripts_dir) / script;
  if (!std::filesystem::exists(path) || !std::filesystem::exists("/usr/bin/python3")) {
    return fmt::format("skipped ({} or /usr/bin/python3 missing)", path.string());
  }
  exec::ChildSpec spec;
  spec.argv = {"/usr/bin/python3", path.string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.pus = platform::allowed_pus();
  spec.stdout_path = setup.output / "plots.log";
  spec.stderr_path = setup.output / (script + ".err");
  try {
    exec::ChildProcess child = exec::ChildProcess::spawn(spec);
    const exec::ExitInfo exit = child.reap();
    return exit.ok() ? "ok" : fmt::format("failed ({}, see {})", exit.describe(), spec.stderr_path.string());
  } catch (const Error& e) {
    return fmt::format("failed: {}", e.what());
  }
}

std::string optional_cell(const std::optional<double>& value, const char* format) {
  return value ? fmt::format(fmt::runtime(format), *value) : std::string("-");
}

// Fig. 3(b)'s table: per algorithm, observed (predicted) makespan in each memory configuration.
std::string configurations_table(const std::vector<std::string>& algorithms, const std::vector<RunRow>& rows) {
  std::string text = fmt::format("{:<12} {:>22} {:>22} {:>22}\n", "algorithm", "cores + fast memory",
                                 "cores only, all slow", "cores only, system");
  for (const auto& algorithm : algorithms) {
    std::map<std::string, const RunRow*> by_config;
    for (const auto& row : rows) {
      if (row.algorithm == algorithm) by_config[row.configuration] = &row;
    }
    const auto cell = [&](const std::string& configuration) {
      const RunRow* row = by_config.count(configuration) ? by_config[configuration] : nullptr;
      return row ? fmt::format("{:.2f}s ({:.2f}s)", row->observed(), row->predicted_contention().value_or(row->predicted()))
                 : std::string("-");
    };
    text += fmt::format("{:<12} {:>22} {:>22} {:>22}\n", algorithm, cell("cores+fast"), cell("cores-only-slow"),
                        cell("cores-only-system"));
  }
  return text;
}

// The rows for programs: each run's configuration, algorithm and makespans.
nlohmann::json rows_json(const std::vector<RunRow>& rows) {
  nlohmann::json json = nlohmann::json::array();
  for (const auto& row : rows) json.push_back(row_json(row));
  return json;
}

}  // namespace

void write_mixed_results(const DemoSetup& mixed, const std::vector<RunRow>& rows, Reporter& reporter) {
  const bool emulated = mixed.tier.emulated();
  std::vector<std::string> groups;
  for (const auto& entry : mixed.batch) {
    groups.push_back(fmt::format("{} {} {} MiB", entry.count, entry.kernel, entry.footprint_bytes >> 20));
  }
  std::string text = fmt::format("\nFig. 3(a)/(b), mixed batch ({}): observed makespan (predicted){}\n",
                                 fmt::join(groups, ", "), emulated ? " [EMULATED fast tier]" : "");
  text += configurations_table(mixed.fig3b_algorithms, rows);
  text += fmt::format("cores + fast memory: the scheduler places fast memory per task, where the task's profile gains "
                      "from it (bandwidth-bound kernels more than gemm or gups); the other columns leave every task's "
                      "memory slow or to the system. Files: {}\n",
                      (mixed.output / "results.csv").string());
  reporter.result({"demo-mixed-batch", std::move(text), rows_json(rows)});
  write_text_file(mixed.output / "results.csv", launcher::results_csv(compared_runs(rows), emulated), mixed.overwrite(),
                  "demo results");
}

void write_results(const DemoSetup& setup, const std::vector<RunRow>& rows, const NoiseFloor& noise, double total_s,
                   Reporter& reporter) {
  const bool emulated = setup.tier.emulated();
  const std::string note = emulated ? " [EMULATED fast tier]" : "";

  // The main table: every algorithm with cores and fast memory scheduled, both predictions.
  std::string table = fmt::format("\nObserved vs predicted makespan, cores + fast memory scheduled{}\n", note);
  table += fmt::format("{:<12} {:>9} {:>10} {:>11} {:>10} {:>10} {:>11} {:>9} {:>11}\n", "algorithm", "L_min(d)",
                       "predicted", "pred.cont.", "observed", "obs/pred", "obs/p.cont", "obs/Lmin", "sched time");
  for (const auto& row : rows) {
    if (row.configuration != "cores+fast") continue;
    table += fmt::format("{:<12} {:>8.3f}s {:>9.3f}s {:>11} {:>9.3f}s {:>10.4f} {:>11} {:>9.3f} {:>9.3f}ms{}\n",
               row.algorithm, row.lower_bound(), row.predicted(), optional_cell(row.predicted_contention(), "{:.3f}s"),
               row.observed(), row.ratio(), optional_cell(row.ratio_contention(), "{:.4f}"),
               row.lower_bound() > 0 ? row.observed() / row.lower_bound() : 0.0, row.scheduling_s * 1e3,
               row.tasks_failed() > 0 ? fmt::format("  ({} tasks failed)", row.tasks_failed()) : "");
  }
  const launcher::PredictionFidelity fidelity = launcher::prediction_fidelity(cores_and_fast_reports(rows));
  const double noise_floor = noise.relative_half_range();

  // Fig. 3(b): three memory configurations.
  table += fmt::format("\nFig. 3(b): observed makespan (predicted) per memory configuration{}\n", note);
  table += configurations_table(setup.fig3b_algorithms, rows);
  if (emulated) {
    table += "note: \"system\" is plain DRAM here — this VM has no real slow tier, so it runs at the speed of the "
             "emulated FAST tier; on a KNL it would be MCDRAM in cache mode.\n";
  }

  std::vector<const launcher::JournalReport*> every_report;
  std::vector<launcher::DurationRatios> durations;
  for (const auto& row : rows) {
    every_report.push_back(&row.report);
    if (row.configuration == "cores+fast") durations.push_back(row.durations);
  }
  const launcher::LaunchOverheads overheads = launcher::launch_overheads(every_report);
  const launcher::DurationSummary tasks = launcher::duration_summary(durations);
  table += fmt::format("\nFidelity over the {} algorithms, |observed/predicted - 1|: paper model median {:.2f} %, "
                       "worst {:.2f} %; contention-aware {}; noise floor ±{:.2f} % ({} launches of {}){}\n",
             fidelity.errors.size(), fidelity.median_error * 100, fidelity.worst_error * 100,
             fidelity.have_contention() ? fmt::format("median {:.2f} %, worst {:.2f} %",
                                                      fidelity.median_error_contention * 100,
                                                      fidelity.worst_error_contention * 100)
                                        : std::string("unavailable (no bandwidth model)"),
             noise_floor * 100, noise.observed.size(), noise.algorithm, note);
  table += fmt::format("Task durations observed/predicted: {:.3f} when running alone ({} tasks), {:.3f} when "
                       "co-running ({} tasks) — co-runners share memory bandwidth that isolated profiles do not "
                       "see.\n",
             tasks.alone_mean, tasks.ratios.alone.size(), tasks.corun_mean, tasks.ratios.corun.size());
  const IntervalCoverage coverage = interval_coverage(rows);
  table += fmt::format("Observed inside the stated 80 % interval (from the errors of the launches before it): {} of {} "
                       "launches.\n",
                       coverage.inside, coverage.stated);
  const std::optional<double> load = load_average();
  table += fmt::format("Launch overhead per task (spawn to exec + binding + placement): min {:.3f} ms, median "
                       "{:.3f} ms, max {:.3f} ms over {} launches{}.\n",
             overheads.min_s * 1e3, overheads.median_s * 1e3, overheads.max_s * 1e3, overheads.launches,
             load ? fmt::format(" (load average now {:.1f}: other processes share these cores and slow "
                                     "everything, the tasks most)", *load)
                       : std::string());

  // Files.
  const std::string csv = launcher::results_csv(compared_runs(rows), emulated);
  const nlohmann::json json_rows = rows_json(rows);
  nlohmann::json passes = nlohmann::json::array();
  for (const auto& entry : setup.batch) {
    passes.push_back({{"kernel", entry.kernel}, {"footprint_bytes", entry.footprint_bytes}, {"count", entry.count},
                      {"passes", entry.passes}});
  }
  const nlohmann::json summary = {
      {"host", host_name()},
      {"date", iso8601_utc_micro(std::chrono::system_clock::now())},
      {"quick", setup.options.quick},
      {"emulated", emulated},
      {"tier_backend", setup.tier.backend},
      {"emulation_ratio", emulated ? nlohmann::json(setup.tier.emulation_ratio) : nlohmann::json(nullptr)},
      {"cores", setup.platform.cores},
      {"fast_capacity_bytes", setup.platform.fast_capacity_bytes},
      {"fast_chunks", setup.platform.fast_chunks},
      {"batch", passes},
      {"node", setup.node},
      {"calibration_seconds", setup.calibration_s},
      {"rows", json_rows},
      {"fidelity",
       {{"median_abs_error", fidelity.median_error},
        {"worst_abs_error", fidelity.worst_error},
        {"median_abs_error_contention",
         fidelity.have_contention() ? nlohmann::json(fidelity.median_error_contention) : nlohmann::json(nullptr)},
        {"worst_abs_error_contention",
         fidelity.have_contention() ? nlohmann::json(fidelity.worst_error_contention) : nlohmann::json(nullptr)},
        {"interval_inside", coverage.inside},
        {"interval_stated", coverage.stated},
        {"noise_floor", noise_floor},
        {"noise_floor_method", "(max - min) / (2 median) of the observed makespans of one plan launched repeatedly"},
        {"noise_floor_algorithm", noise.algorithm},
        {"noise_floor_observed", noise.observed},
        {"duration_ratio_alone_mean", tasks.alone_mean},
        {"duration_ratio_corun_mean", tasks.corun_mean},
        {"tasks_alone", tasks.ratios.alone.size()},
        {"tasks_corun", tasks.ratios.corun.size()},
        {"launch_overhead_median_s", overheads.median_s},
        {"launch_overhead_min_s", overheads.min_s},
        {"load_average_1min_at_end", load ? nlohmann::json(*load) : nlohmann::json(nullptr)},
        {"launch_overhead_max_s", overheads.max_s}}},
      {"total_seconds", total_s}};
  reporter.result({"demo-results", std::move(table), summary});
  // Written whole or not at all: the plotting script reads the CSV next.
  write_text_file(setup.output / "results.json", summary.dump(2) + "\n", setup.overwrite(), "demo results");
  write_text_file(setup.output / "results.csv", csv, setup.overwrite(), "demo results");

  const std::string bars = plot(setup, "plot_makespans.py",
                                {(setup.output / "results.csv").string(), "--output",
                                 (setup.output / "makespans.png").string()});
  const std::string gantt = plot(setup, "plot_gantt.py",
                                 {(setup.output / "runs" / "cores+fast-t-list-lpt.jsonl").string(), "--output",
                                  (setup.output / "gantt-t-list-lpt.png").string()});
  reporter.note(fmt::format("plots: makespans.png {}, gantt-t-list-lpt.png {}", bars, gantt));
  reporter.note(fmt::format("demo finished in {:.0f} s{}", total_s, note));
  reporter.note(fmt::format("demo output: {}", setup.output.string()));
}

}  // namespace cosched::workflow::demo
