// `cosched bsp-batch`: an offline batch of moldable BSP tasks sampled from an SWF trace (seed 004, Sec. 4) — the
// Instance JSON the BSP algorithms (and the others) plan. Jobs are read by the project's one SWF parser.
#include <fmt/core.h>

#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/bsp.hpp"
#include "cosched/online/bsp_batch.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/online/swf.hpp"

namespace {

namespace sched = cosched::sched;

struct BspBatchFlags {
  std::string trace;
  int procs = 0;
  std::size_t tasks = 0;
  std::uint64_t seed = 1;
  std::string output = "-";
  bool force = false;
};

void run_bsp_batch(const BspBatchFlags& flags) {
  const auto overwrite = cosched::overwrite_if_forced(flags.force);
  cosched::check_output_path(flags.output, overwrite, "instance");
  const auto instance =
      online::sample_bsp_batch(online::load_swf(flags.trace), {flags.procs, flags.tasks, flags.seed}, flags.trace);
  cosched::write_text_file(flags.output, sched::instance_to_json(instance) + "\n", overwrite, "instance");
}

const cosched::cli::CommandRegistration bsp_batch_registration{"bsp-batch", [](CLI::App& app) {
  auto* sub = app.add_subcommand("bsp-batch",
                                 "Sample a batch of moldable BSP tasks (req, time_at_req) from an SWF trace: an "
                                 "Instance JSON for `cosched plan` (bsp-a1 ... bsp-a4, Dutot et al.)");
  auto flags = std::make_shared<BspBatchFlags>();
  sub->add_option("--trace", flags->trace, "SWF trace (plain or gzip)")->required();
  sub->add_option("--procs", flags->procs, "m, the processors of the batch")
      ->required()
      ->check(CLI::Range(1, sched::kMaxCapacity));
  sub->add_option("--tasks", flags->tasks, "Tasks to sample (without replacement)")
      ->required()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  sub->add_option("--seed", flags->seed, "Seed of the sample");
  sub->add_option("-o,--output", flags->output, "Instance JSON to write (default -: stdout)");
  sub->add_flag("--force", flags->force, "Replace an existing --output file");
  sub->callback([flags] { run_bsp_batch(*flags); });
}};

}  // namespace
