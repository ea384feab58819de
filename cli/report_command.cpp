// `cosched report`: summarise a launch journal (both predicted makespans and the observed one with the error of
// each prediction, bound, task counts, deviations, overheads).
#include <fmt/core.h>

#include <filesystem>
#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/launcher/cluster/cluster_report.hpp"
#include "cosched/launcher/report.hpp"

namespace {

struct ReportFlags {
  std::string journal;
  bool json = false;
};

const cosched::cli::CommandRegistration report_registration{"report", [](CLI::App& app) {
  auto* sub = app.add_subcommand("report", "Summarise a launch journal (JSON lines)");
  auto flags = std::make_shared<ReportFlags>();
  sub->add_option("journal", flags->journal,
                  "Journal written by cosched launch, or a cluster plan folder (its node journals merged)")
      ->required();
  sub->add_flag("--json", flags->json, "One JSON object (predicted_makespan, predicted_makespan_contention, "
                                       "observed_makespan, error_paper, error_contention, lower_bound, "
                                       "tasks_completed, tasks_failed, per-task rows)");
  sub->callback([flags] {
    // A folder is a cluster plan (or a `demo --slurm` output): its node journals merged.
    std::error_code error;
    if (std::filesystem::is_directory(flags->journal, error)) {
      const auto merged = cosched::launcher::summarize_cluster(flags->journal);
      fmt::print("{}", flags->json ? cosched::launcher::to_json(merged).dump(2) + "\n"
                                   : cosched::launcher::format_cluster_report(merged));
      return;
    }
    const auto report = cosched::launcher::summarize_journal(flags->journal);
    if (flags->json) {
      fmt::print("{}\n", cosched::launcher::to_json(report).dump(2));
    } else {
      fmt::print("{}", cosched::launcher::format_report(report));
    }
  });
}};

}  // namespace
