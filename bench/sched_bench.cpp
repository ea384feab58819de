// Scheduling speed (Sec. 5.4, Fig. 4(b)) on synthetic instances of the simulate generator, n = 150:
//   AllEight/d2        the eight algorithms one after the other, capacities (64, 20)   goal < 20 ms
//   Algorithm/<name>/d4 each algorithm alone, capacities (64, 32, 16, 8)               goal D < 1 s, T >= 1000x faster
//   LowerBound/d4      L_min(d) = RA_d(d) alone (what every D-variant pays in Phase 1)
#include <benchmark/benchmark.h>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/generator.hpp"

namespace {

using namespace cosched::sched;

Instance synthetic(std::vector<int> capacities) {
  GeneratorConfig config;
  config.capacities = std::move(capacities);
  config.tasks = 150;
  return generate_instance(config, instance_seed(1, 0));
}

void all_eight_d2(benchmark::State& state) {
  const Instance instance = synthetic({64, 20});
  for (auto _ : state) {
    for (const auto& algorithm : algorithms()) benchmark::DoNotOptimize(algorithm->schedule(instance).makespan);
  }
}
BENCHMARK(all_eight_d2)->Name("AllEight/d2")->Unit(benchmark::kMillisecond);

void lower_bound_d4(benchmark::State& state) {
  const Instance instance = synthetic({64, 32, 16, 8});
  for (auto _ : state) benchmark::DoNotOptimize(lower_bound(instance));
}
BENCHMARK(lower_bound_d4)->Name("LowerBound/d4")->Unit(benchmark::kMillisecond);

const bool registered = [] {
  for (const auto& name : algorithm_names()) {
    benchmark::RegisterBenchmark(("Algorithm/" + name + "/d4").c_str(), [name](benchmark::State& state) {
      const Instance instance = synthetic({64, 32, 16, 8});
      const Algorithm& algorithm = find_algorithm(name);
      for (auto _ : state) benchmark::DoNotOptimize(algorithm.schedule(instance).makespan);
    })->Unit(name[0] == 'd' ? benchmark::kMillisecond : benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
