#pragma once
// Preparation spread over the cores of a team's memory locality: faulting fresh pages in (the OS zeroes a page at
// its first touch, and a VM's host may have to fault it in first; faults on different cores proceed in parallel),
// and any other work split into independent pieces that any of those cores may do.
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

namespace cosched::stream::detail {

// Runs do_piece(0), .., do_piece(pieces - 1) on threads pinned to `core_pus`: the calling thread, pinned to the
// first core for the call (its binding is given back), and one thread per other core. Threads take the next piece
// as they become free, so a core that other processes hold up slows nothing down: the calling thread alone does
// every piece if it has to (a core that refuses its binding, or a thread that cannot be started, only leaves the
// others more to do). do_piece must not throw. If the calling thread's own binding is refused, the other threads
// do every piece (none if there are none: a caller that needs every piece done passes at least one core it can
// use). Returns how many threads did at least one piece.
unsigned spread_over_cores(std::size_t pieces, const std::vector<std::vector<unsigned>>& core_pus,
                           const std::function<void(std::size_t)>& do_piece);

// Touches every page of `regions` from threads pinned to `core_pus` (spread_over_cores, 2 MiB at a time). Each
// page is written a zero — fresh pages hold zeros already, so nothing changes; callers write their values
// afterwards, and pages nobody touched are faulted in by the caller's own first touch later. Returns how many
// threads touched at least one chunk.
unsigned prefault_pages(const std::vector<std::span<double>>& regions,
                        const std::vector<std::vector<unsigned>>& core_pus);

}  // namespace cosched::stream::detail
