// Every STREAM kernel with regular and streaming stores, in cache and out of it: the measurements behind
// stream_bench's "--stores auto" rule (docs/stream_bench.md). Threads: all allowed cores.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"

namespace {

void stream_kernel(benchmark::State& state, std::string kernel, cosched::stream::StoreMode stores) {
  cosched::stream::StreamConfig config;
  config.kernel = std::move(kernel);
  config.threads = static_cast<unsigned>(cosched::platform::allowed_cores().size());
  config.array_bytes = static_cast<std::size_t>(state.range(0)) << 20;
  config.reps = 5;
  config.stores = stores;
  cosched::platform::TierOptions tiers;
  tiers.backend = "none";  // plain memory: the machine's real speed
  auto backend = cosched::platform::make_tier_backend(tiers);
  double best_gbs = 0;
  for (auto _ : state) {
    const auto result = cosched::stream::run_stream(config, *backend);
    if (!result.validated) state.SkipWithError(result.validation_message.c_str());
    state.SetIterationTime(result.min_time_s);
    best_gbs = std::max(best_gbs, result.best_gbs);
  }
  state.counters["best_GBs"] = best_gbs;
}

void register_all() {
  for (const auto& kernel : cosched::stream::kernel_table()) {
    if (!kernel.elementwise()) continue;  // store modes apply to the STREAM kernels (bench/roofline_vs_likwid.sh)
    for (auto stores : {cosched::stream::StoreMode::regular, cosched::stream::StoreMode::streaming}) {
      const std::string name = std::string(kernel.name) + "/" + std::string(cosched::stream::to_string(stores));
      benchmark::RegisterBenchmark(name.c_str(), stream_kernel, std::string(kernel.name), stores)
          ->Arg(4)     // MiB per array: in the 32 MiB L3
          ->Arg(64)    // far out of it
          ->UseManualTime()
          ->Iterations(3)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
