// Scheduling speed (Sec. 5.4, Fig. 4(b)) on synthetic instances of the simulate generator, n = 150:
//   AllEight/d2        the eight algorithms one after the other, capacities (64, 20)   goal < 20 ms
//   Algorithm/<name>/d4 each algorithm alone, capacities (64, 32, 16, 8)               goal D < 1 s, T >= 1000x faster
//   LowerBound/d4      L_min(d) = RA_d(d) alone (what every D-variant pays in Phase 1)
//   Bsp/<name>/1000x256 seed 004's BSP algorithms on 1,000 random BSP tasks, 256 processors   goal < 1 s each
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/bsp.hpp"
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
    for (const auto& algorithm : algorithms()) {
      if (algorithm->refusal(instance).empty()) benchmark::DoNotOptimize(algorithm->schedule(instance).makespan);
    }
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
    if (!find_algorithm(name).refusal(synthetic({1, 1, 1, 1})).empty()) continue;  // bsp-a*: one resource only
    benchmark::RegisterBenchmark(("Algorithm/" + name + "/d4").c_str(), [name](benchmark::State& state) {
      const Instance instance = synthetic({64, 32, 16, 8});
      const Algorithm& algorithm = find_algorithm(name);
      for (auto _ : state) benchmark::DoNotOptimize(algorithm.schedule(instance).makespan);
    })->Unit(name[0] == 'd' ? benchmark::kMillisecond : benchmark::kMicrosecond);
  }
  // Seed 004's goal: each BSP algorithm on 1,000 tasks x 256 processors (req uniform in 1..256, t(req) in (0, 3600]).
  for (const char* name : {"bsp-a1", "bsp-a2", "bsp-a3", "bsp-a4"}) {
    std::string label("Bsp/");  // append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string at -O3
    label.append(name).append("/1000x256");
    benchmark::RegisterBenchmark(label.c_str(), [name](benchmark::State& state) {
      Random random(2026);
      std::vector<Task> tasks;
      for (std::size_t j = 0; j < 1000; ++j) {
        const int req = 1 + static_cast<int>(random.index(256));
        std::string id("t");
        id.append(std::to_string(j));
        tasks.push_back({std::move(id), std::make_shared<BspProfile>(req, random.uniform_above(0, 3600))});
      }
      const Instance instance({{"procs", 256}}, std::move(tasks));
      const Algorithm& algorithm = find_algorithm(name);
      for (auto _ : state) benchmark::DoNotOptimize(algorithm.schedule(instance).makespan);
    })->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
