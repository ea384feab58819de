#pragma once
// Binding threads and processes to PUs of *this* system, through hwloc. PUs are named by their OS index (what
// the kernel and taskset call CPU numbers). Failures throw PlatformError: a binding that silently did not
// happen would make every measurement a lie.
#include <span>
#include <vector>

namespace cosched::platform {

// The PUs this process may run on (its cpuset: cgroups, taskset, a Slurm allocation), ascending.
[[nodiscard]] std::vector<unsigned> allowed_pus();

// The allowed cores in hwloc logical order; each entry lists the core's allowed PUs (OS indices).
// Cores with no allowed PU are left out, so "core k" means the k-th core this process may use.
[[nodiscard]] std::vector<std::vector<unsigned>> allowed_cores();

// Binds the calling thread to exactly these PUs (strict). Throws PlatformError on failure or empty input.
void bind_current_thread(std::span<const unsigned> pus);

// Binds a whole process (all its threads) to these PUs. Throws PlatformError on failure.
void bind_process(int pid, std::span<const unsigned> pus);

// The calling thread's binding, read back from the OS through hwloc, ascending.
[[nodiscard]] std::vector<unsigned> current_thread_binding();

// The PU the calling thread last ran on.
[[nodiscard]] unsigned current_pu();

}  // namespace cosched::platform
