#pragma once
// A profiler measurer that times what the launcher will run: a whole stream_bench child process for the task
// (fork/exec, binding, allocation and first touch, every pass, validation), isolated on its cores with its fast
// share. Its times are what a prediction of a launch needs; what they cannot see is a co-runner's contention.
// Times are reported per kernel pass (the profile convention: the instance multiplies them by the passes).
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "cosched/launcher/task_command.hpp"
#include "cosched/platform/core_allocator.hpp"
#include "cosched/profiler/measurer.hpp"

namespace cosched::demo {

class ProcessMeasurer final : public profiler::PointMeasurer {
 public:
  // `passes` gives the passes of each (kernel, footprint) task; `reps` launches are timed after `warmup` ones.
  ProcessMeasurer(config::PlatformConfig platform, launcher::TierSetup tier, std::filesystem::path stream_bench,
                  std::map<std::pair<std::string, std::uint64_t>, unsigned> passes, unsigned reps, unsigned warmup);

  [[nodiscard]] std::string_view name() const override { return "process"; }
  void check_kernel(const std::string& kernel) const override;
  [[nodiscard]] profiler::Measurement measure(const profiler::ProfilePoint& point) override;
  [[nodiscard]] nlohmann::json describe() const override;

 private:
  config::PlatformConfig platform_;
  launcher::TierSetup tier_;
  std::filesystem::path stream_bench_;
  std::map<std::pair<std::string, std::uint64_t>, unsigned> passes_;
  unsigned reps_;
  unsigned warmup_;
  std::shared_ptr<platform::CoreAllocator> cores_;
};

}  // namespace cosched::demo
