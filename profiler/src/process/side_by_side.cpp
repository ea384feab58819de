#include "process/side_by_side.hpp"

#include <poll.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/platform/host_memory.hpp"

namespace cosched::profiler {

std::vector<exec::TaskLaunch> launches_on_own_cores(platform::CoreAllocator& cores, const config::WorkloadTask& task,
                                                    const ProfilePoint& point, std::size_t copies,
                                                    const exec::TierSetup& tier,
                                                    const std::filesystem::path& stream_bench) {
  std::vector<platform::CoreAllocation> held;
  std::vector<exec::TaskLaunch> launches;
  try {
    for (std::size_t k = 0; k < copies; ++k) {
      platform::Grant grant;
      grant.amounts = {static_cast<int>(point.cores), static_cast<int>(point.chunks)};
      grant.cores = held.emplace_back(cores.allocate(point.cores));
      grant.fast_chunks = point.chunks;
      launches.push_back(exec::build_task_launch(task, grant, tier, stream_bench, {}));
    }
  } catch (...) {
    for (const auto& allocation : held) cores.release(allocation);
    throw;
  }
  for (const auto& allocation : held) cores.release(allocation);
  return launches;
}

bool is_probe_point(const ProfilePoint& point, unsigned pair_cores, const platform::CoreAllocator& cores) {
  return pair_cores > 0 && point.cores == pair_cores && point.chunks == 0 &&
         cores.free_count() >= 2 * std::size_t{point.cores};
}

SideBySide run_side_by_side(const std::vector<exec::TaskLaunch>& launches, std::optional<double> timeout_s,
                            std::uint64_t warm_bytes) {
  (void)platform::warm_up_memory(warm_bytes);
  const std::size_t count = launches.size();
  std::vector<std::optional<exec::ChildProcess>> copies(count);
  std::vector<std::chrono::steady_clock::time_point> began(count);
  SideBySide result;
  result.seconds.assign(count, 0.0);
  for (std::size_t k = 0; k < count; ++k) {
    began[k] = std::chrono::steady_clock::now();
    try {
      copies[k].emplace(exec::ChildProcess::spawn(launches[k].spec));
    } catch (const Error& e) {  // the copies already started are killed by their destructors
      return {{}, fmt::format("a copy could not start: {}", e.what())};
    }
  }
  std::string failure;
  std::size_t running = count;
  while (running > 0) {
    std::vector<pollfd> fds(count);
    for (std::size_t k = 0; k < count; ++k) fds[k] = {copies[k] ? copies[k]->pidfd() : -1, POLLIN, 0};
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - began.front()).count();
    int timeout_ms = -1;
    if (timeout_s) timeout_ms = static_cast<int>(std::ceil(std::max(0.0, *timeout_s - waited) * 1e3));
    const int ready = ::poll(fds.data(), fds.size(), timeout_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) throw PlatformError("poll", "waiting for copies run side by side", errno);
    if (ready == 0) return {{}, fmt::format("the copies outlived the timeout of {} s: killed", *timeout_s)};
    for (std::size_t k = 0; k < count; ++k) {
      if (!copies[k] || (fds[k].revents & POLLIN) == 0) continue;
      const auto ended = std::chrono::steady_clock::now();
      const exec::ExitInfo exit = copies[k]->reap();
      copies[k].reset();
      --running;
      result.seconds[k] = std::chrono::duration<double>(ended - began[k]).count();
      if (!exit.ok() && failure.empty()) failure = fmt::format("a copy ended with {}", exit.describe());
    }
  }
  if (!failure.empty()) return {{}, failure};
  return result;
}

}  // namespace cosched::profiler
