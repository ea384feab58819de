#pragma once
// Faulting fresh pages in from several cores at once: the OS zeroes a page at its first touch (and a VM's host may
// have to fault it in first), and faults on different cores proceed in parallel.
#include <span>
#include <vector>

namespace cosched::stream::detail {

// Touches every page of `regions` from threads pinned to `core_pus`: the calling thread, pinned to the first core
// for the call (its binding is given back), and one thread per other core. Threads take the next chunk of pages
// as they become free, so a core that other processes hold up slows nothing down: the calling thread alone
// touches every page if it has to (a core that refuses its binding, or a thread that cannot be started, only
// leaves the others more to do; pages nobody touched are faulted in by the caller's own first touch later). Each
// page is written a zero — fresh pages hold zeros already, so nothing changes; callers write their values
// afterwards. Returns how many threads touched at least one chunk.
unsigned prefault_pages(const std::vector<std::span<double>>& regions,
                        const std::vector<std::vector<unsigned>>& core_pus);

}  // namespace cosched::stream::detail
