// `cosched report`: summarise a launch journal (both predicted makespans and the observed one with the error of
// each prediction, bound, task counts, deviations, overheads).
#include <fmt/core.h>

#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/launcher/report.hpp"

namespace {

struct ReportFlags {
  std::string journal;
  bool json = false;
};

const cosched::cli::CommandRegistration registration{"report", [](CLI::App& app) {
  auto* sub = app.add_subcommand("report", "Summarise a launch journal (JSON lines)");
  auto flags = std::make_shared<ReportFlags>();
  sub->add_option("journal", flags->journal, "Journal written by cosched launch")->required();
  sub->add_flag("--json", flags->json, "One JSON object (predicted_makespan, predicted_makespan_contention, "
                                       "observed_makespan, error_paper, error_contention, lower_bound, "
                                       "tasks_completed, tasks_failed, per-task rows)");
  sub->callback([flags] {
    const auto report = cosched::launcher::summarize_journal(flags->journal);
    if (flags->json) {
      fmt::print("{}\n", cosched::launcher::to_json(report).dump(2));
    } else {
      fmt::print("{}", cosched::launcher::format_report(report));
    }
  });
}};

}  // namespace
