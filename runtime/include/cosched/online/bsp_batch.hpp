#pragma once
// An offline batch of moldable BSP tasks sampled from an SWF trace (seed 004, Sec. 4; `cosched bsp-batch`): the
// paper samples "tasks ... selected randomly from all the tasks" of a log; req = the job's processors (allocated,
// else requested), t(req) = its run time. Jobs wider than m, without a run time or a size are not usable
// (select_swf_jobs; the count is reported in the instance's "workload" attribute).
#include <cstddef>
#include <cstdint>
#include <string>

#include "cosched/sched/model.hpp"
#include "cosched/online/swf.hpp"

namespace cosched::online {

struct BspBatchOptions {
  int procs = 0;          // m, the processors of the batch
  std::size_t tasks = 0;  // tasks sampled, without replacement
  std::uint64_t seed = 1;
};

// The first `tasks` positions of a seeded Fisher-Yates shuffle of the usable jobs (a uniform sample without
// replacement), task "job-<job number>" a BspProfile(size, run time), one resource "procs" of capacity m. `source`
// names the trace in the attribute and messages. Throws UsageError when the trace has fewer usable jobs than
// `tasks`, select_swf_jobs's errors, and check_serial_time's.
[[nodiscard]] sched::Instance sample_bsp_batch(const SwfTrace& trace, const BspBatchOptions& options,
                                        const std::string& source);

}  // namespace cosched::online
