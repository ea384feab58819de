#include "page_prefault.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <system_error>
#include <thread>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::stream::detail {

namespace {

// A transparent huge page: one fault maps it whole where THP is on, 512 faults where it is not. Small enough that
// the last chunks spread over the threads, large enough that taking one costs nothing next to faulting it.
constexpr std::size_t chunk_bytes = std::size_t{2} << 20;

struct Chunk {
  double* begin;
  std::size_t words;
};

std::vector<Chunk> chunks_of(const std::vector<std::span<double>>& regions) {
  const std::size_t chunk_words = chunk_bytes / sizeof(double);
  std::vector<Chunk> chunks;
  for (const std::span<double> region : regions) {
    for (std::size_t at = 0; at < region.size(); at += chunk_words) {
      chunks.push_back({region.data() + at, std::min(chunk_words, region.size() - at)});
    }
  }
  return chunks;
}

}  // namespace

unsigned spread_over_cores(std::size_t pieces, const std::vector<std::vector<unsigned>>& core_pus,
                           const std::function<void(std::size_t)>& do_piece) {
  if (pieces == 0 || core_pus.empty()) return 0;
  std::atomic<std::size_t> next{0};
  std::atomic<unsigned> working{0};
  const auto do_pieces = [&] {
    bool worked = false;
    for (std::size_t k = next.fetch_add(1, std::memory_order_relaxed); k < pieces;
         k = next.fetch_add(1, std::memory_order_relaxed)) {
      do_piece(k);
      worked = true;
    }
    if (worked) working.fetch_add(1, std::memory_order_relaxed);
  };

  std::vector<std::jthread> mates;
  for (std::size_t t = 1; t < core_pus.size(); ++t) {
    try {
      mates.emplace_back([&, pus = core_pus[t]] {
        try {
          platform::bind_current_thread(pus);
        } catch (const PlatformError&) {
          return;  // a core that refuses the binding takes no piece: the others do them
        }
        do_pieces();
      });
    } catch (const std::system_error&) {
      break;  // no thread for this core: the ones started and the caller do every piece
    }
  }
  const std::vector<unsigned> caller_binding = platform::current_thread_binding();
  bool pinned = true;
  try {
    platform::bind_current_thread(core_pus.front());
  } catch (const PlatformError&) {
    pinned = false;  // refused where it would work: the mates do the pieces
  }
  if (pinned) {
    do_pieces();
    // Not caught: a caller left pinned to another core than its own would run everything after on the wrong core.
    platform::bind_current_thread(caller_binding);
  }
  mates.clear();  // joins them: every piece was taken, each thread finishes the one it holds
  return working.load();
}

unsigned prefault_pages(const std::vector<std::span<double>>& regions,
                        const std::vector<std::vector<unsigned>>& core_pus) {
  const std::vector<Chunk> chunks = chunks_of(regions);
  const std::size_t page_words = std::max<std::size_t>(1, platform::page_bytes() / sizeof(double));
  // One write per page from the chunk's start: chunks and pages both start page-aligned within a mapping, and a
  // region that does not only misses pages its own first touch then faults in.
  return spread_over_cores(chunks.size(), core_pus, [&](std::size_t k) {
    for (std::size_t i = 0; i < chunks[k].words; i += page_words) chunks[k].begin[i] = 0.0;
  });
}

}  // namespace cosched::stream::detail
