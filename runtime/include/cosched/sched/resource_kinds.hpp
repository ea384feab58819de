#pragma once
// The node resource types cosched schedules, by name — one home for the names every component uses to find a
// plan's cores and fast-tier chunks (instances, schedules, launch plans, the node's pool). Cores come first; the
// fast tier's chunks, when the node has a fast tier, second. Schedule files written before the name settled call
// the chunks "chunks".
#include <string_view>

namespace cosched::sched {

inline constexpr std::string_view kCoresResource = "cores";
inline constexpr std::string_view kFastChunksResource = "fast_chunks";

[[nodiscard]] constexpr bool is_cores_resource(std::string_view name) noexcept { return name == kCoresResource; }
[[nodiscard]] constexpr bool is_fast_chunks_resource(std::string_view name) noexcept {
  return name == kFastChunksResource || name == "chunks";
}

}  // namespace cosched::sched
