#pragma once
// Facts about this machine's memory that stream_bench needs before allocating: how much is available, and how
// big the caches are (for choosing streaming stores).
#include <cstddef>

namespace cosched::stream::detail {

// MemAvailable from /proc/meminfo (what can be allocated without swapping); sysconf free pages if unreadable.
[[nodiscard]] std::size_t read_available_memory_bytes();

// The largest CPU cache of cpu0 from sysfs (sysconf's value is wrong on some VMs); 32 MiB when unknown.
[[nodiscard]] std::size_t last_level_cache_bytes();

// The largest cache of cpu0 at level 1 or 2 (a core's own, or its SMT siblings'); 1 MiB when unknown. Arrays larger
// than this cannot stay next to the core that first touches them, so their initial values go by streaming stores.
[[nodiscard]] std::size_t private_cache_bytes();

}  // namespace cosched::stream::detail
