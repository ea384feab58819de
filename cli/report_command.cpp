// `cosched report`: summarise a launch journal (both predicted makespans and the observed one with the error of
// each prediction, bound, task counts, deviations, overheads).
#include <memory>

#include "command_registry.hpp"
#include "cosched/workflow/inspect.hpp"
#include "reporting.hpp"

namespace {

const cosched::cli::CommandRegistration report_registration{"report", [](CLI::App& app) {
  auto* sub = app.add_subcommand("report", "Summarise a launch journal (JSON lines)");
  auto flags = std::make_shared<cosched::workflow::ReportOptions>();
  sub->add_option("journal", flags->journal,
                  "Journal written by cosched launch, or a cluster plan folder (its node journals merged)")
      ->required();
  sub->add_flag("--json", flags->json, "One JSON object (predicted_makespan, predicted_makespan_contention, "
                                       "observed_makespan, error_paper, error_contention, lower_bound, "
                                       "tasks_completed, tasks_failed, per-task rows)");
  sub->callback([flags] {
    const auto reporter = cosched::cli::command_reporter("console", {nullptr, stderr, stdout});
    cosched::workflow::run_report(*flags, *reporter);
  });
}};

}  // namespace
