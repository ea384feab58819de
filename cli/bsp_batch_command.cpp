// `cosched bsp-batch`: an offline batch of moldable BSP tasks sampled from an SWF trace (seed 004, Sec. 4) — the
// Instance JSON the BSP algorithms (and the others) plan. Jobs are read by the project's one SWF parser.
#include <memory>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/workflow/planning.hpp"

namespace {

namespace sched = cosched::sched;

const cosched::cli::CommandRegistration bsp_batch_registration{"bsp-batch", [](CLI::App& app) {
  auto* sub = app.add_subcommand("bsp-batch",
                                 "Sample a batch of moldable BSP tasks (req, time_at_req) from an SWF trace: an "
                                 "Instance JSON for `cosched plan` (bsp-a1 ... bsp-a4, Dutot et al.)");
  auto flags = std::make_shared<cosched::workflow::BspBatchOptions>();
  sub->add_option("--trace", flags->trace, "SWF trace (plain or gzip)")->required();
  sub->add_option("--procs", flags->procs, "m, the processors of the batch")
      ->required()
      ->check(CLI::Range(1, sched::kMaxCapacity));
  sub->add_option("--tasks", flags->tasks, "Tasks to sample (without replacement)")
      ->required()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  sub->add_option("--seed", flags->seed, "Seed of the sample")->check(cosched::app::seed_value());
  sub->add_option("-o,--output", flags->output, "Instance JSON to write (default -: stdout)");
  sub->add_flag("--force", flags->force, "Replace an existing --output file");
  sub->callback([flags] { cosched::workflow::run_bsp_batch(*flags); });
}};

}  // namespace
