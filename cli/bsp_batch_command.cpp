// `cosched bsp-batch`: an offline batch of moldable BSP tasks sampled from an SWF trace (seed 004, Sec. 4) — the
// Instance JSON the BSP algorithms (and the others) plan. Jobs are read by the project's one SWF parser.
#include <fmt/core.h>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/bsp.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sched/online/swf.hpp"

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

// The paper samples "tasks ... selected randomly from all the tasks" of a log; req = the job's processors
// (allocated, else requested), t(req) = its run time. Jobs wider than m, without a run time or a size are not
// usable (select_swf_jobs; the count is reported).
void run_bsp_batch(const BspBatchFlags& flags) {
  const auto overwrite = cosched::overwrite_if_forced(flags.force);
  cosched::check_output_path(flags.output, overwrite, "instance");
  const auto trace = sched::online::load_swf(flags.trace);
  sched::online::SwfOptions options;
  options.procs = flags.procs;
  const auto selection = sched::online::select_swf_jobs(trace, options);
  const std::size_t usable = selection.kept.size();
  if (flags.tasks > usable) {
    throw cosched::UsageError(fmt::format("--tasks {}: {} has {} usable jobs on {} processors", flags.tasks,
                                          flags.trace, usable, flags.procs));
  }
  // The first `tasks` positions of a seeded Fisher-Yates shuffle: a uniform sample without replacement.
  sched::Random random(flags.seed);
  std::vector<std::size_t> pick(usable);
  std::iota(pick.begin(), pick.end(), std::size_t{0});
  for (std::size_t k = 0; k < flags.tasks; ++k) std::swap(pick[k], pick[k + random.index(usable - k)]);
  std::vector<sched::Task> tasks;
  for (std::size_t k = 0; k < flags.tasks; ++k) {
    const auto& record = trace.records[selection.kept[pick[k]]];
    tasks.push_back({fmt::format("job-{}", record.job_number),
                     std::make_shared<sched::BspProfile>(selection.sizes[pick[k]], record.run_time)});
  }
  const nlohmann::json attributes = {
      {"workload", fmt::format("{} BSP tasks sampled (seed {}) from {}: {} usable of {} jobs, {} wider than {} "
                               "processors",
                               flags.tasks, flags.seed, flags.trace, usable, selection.records_read,
                               selection.wider_than_machine, flags.procs)}};
  const sched::Instance instance({{"procs", flags.procs}}, std::move(tasks), attributes);
  sched::check_serial_time(instance, flags.trace);
  cosched::write_text_file(flags.output, sched::instance_to_json(instance) + "\n", overwrite, "instance");
}

const cosched::cli::CommandRegistration registration{"bsp-batch", [](CLI::App& app) {
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
