#include "cosched/online/bsp_batch.hpp"

#include <fmt/core.h>

#include <memory>
#include <numeric>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/sched/bsp.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/io.hpp"

namespace cosched::online {

sched::Instance sample_bsp_batch(const SwfTrace& trace, const BspBatchOptions& batch, const std::string& source) {
  SwfOptions options;
  options.procs = batch.procs;
  const auto selection = select_swf_jobs(trace, options);
  const std::size_t usable = selection.kept.size();
  if (batch.tasks > usable) {
    throw UsageError(fmt::format("--tasks {}: {} has {} usable jobs on {} processors", batch.tasks, source, usable,
                                 batch.procs));
  }
  // The first `tasks` positions of a seeded Fisher-Yates shuffle: a uniform sample without replacement.
  sched::Random random(batch.seed);
  std::vector<std::size_t> pick(usable);
  std::iota(pick.begin(), pick.end(), std::size_t{0});
  for (std::size_t k = 0; k < batch.tasks; ++k) std::swap(pick[k], pick[k + random.index(usable - k)]);
  std::vector<sched::Task> tasks;
  for (std::size_t k = 0; k < batch.tasks; ++k) {
    const auto& record = trace.records[selection.kept[pick[k]]];
    tasks.push_back({fmt::format("job-{}", record.job_number),
                     std::make_shared<sched::BspProfile>(selection.sizes[pick[k]], record.run_time)});
  }
  const nlohmann::json attributes = {
      {"workload", fmt::format("{} BSP tasks sampled (seed {}) from {}: {} usable of {} jobs, {} wider than {} "
                               "processors",
                               batch.tasks, batch.seed, source, usable, selection.records_read,
                               selection.wider_than_machine, batch.procs)}};
  sched::Instance instance({{"procs", batch.procs}}, std::move(tasks), attributes);
  sched::check_serial_time(instance, source);
  return instance;
}

}  // namespace cosched::online
