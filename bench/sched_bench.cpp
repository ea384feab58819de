// Scheduling speed (Sec. 5.4, Fig. 4(b); issue 25) on synthetic instances of the simulate generator, n = 150:
//   AllEight/d2                  the eight algorithms of Sun et al. Sec. 5.1 (kTheEight, by name), one after the
//                                other, capacities (64, 20): the row of issue 25's table
//   AllRegistered/d2             every registered algorithm that takes (64, 20), one after the other (the eight,
//                                bw-list-lpt, bicriteria and its five baselines today): what issue 25's 17.5 ms and
//                                the rows before 2026-11-25 named AllEight/d2 measured
//   LowerBound/d4                L_min(d) = RA_d(d) alone, capacities (64, 32, 16, 8)
//   Algorithm/<name>/d4          each algorithm alone, capacities (64, 32, 16, 8)
//   Bsp/<name>/1000x256          seed 004's BSP algorithms on 1,000 random BSP tasks, 256 processors
// Each row but Bsp comes twice:
//   cold   a fresh instance every iteration (generated while the timer is paused), so every task's Pareto front
//          is found inside the timed region: the cost of planning a new batch;
//   /warm  the same instance, planned once before the timer starts: what an algorithm costs once L_min(d) or
//          another algorithm has read the fronts (docs/scheduling.md, "Measured speed").
// The program uses the public API only, so the same source builds against older versions of the library for
// before/after comparisons.
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/bsp.hpp"
#include "cosched/sched/generator.hpp"

namespace {

using namespace cosched::sched;

const std::vector<int> kD2{64, 20};
const std::vector<int> kD4{64, 32, 16, 8};

Instance synthetic(std::vector<int> capacities) {
  GeneratorConfig config;
  config.capacities = std::move(capacities);
  config.tasks = 150;
  return generate_instance(config, instance_seed(1, 0));
}

using Body = std::function<void(const Instance&)>;

void cold(benchmark::State& state, const std::vector<int>& capacities, const Body& body) {
  std::optional<Instance> instance;
  for (auto _ : state) {
    state.PauseTiming();
    instance.reset();  // the previous instance, its profiles and their fronts go outside the timed region
    instance.emplace(synthetic(capacities));
    state.ResumeTiming();
    body(*instance);
  }
}

void warm(benchmark::State& state, const std::vector<int>& capacities, const Body& body) {
  const Instance instance = synthetic(capacities);
  body(instance);
  for (auto _ : state) body(instance);
}

void register_both(const std::string& name, const std::vector<int>& capacities, const Body& body,
                   benchmark::TimeUnit unit) {
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) { cold(state, capacities, body); })
      ->Unit(unit);
  benchmark::RegisterBenchmark((name + "/warm").c_str(), [=](benchmark::State& state) {
    warm(state, capacities, body);
  })->Unit(unit);
}

// The eight of Sec. 5.1 (direct / transform x list SPT / LPT, pack NF / FF), named here rather than taken from the
// registry, which holds more algorithms every season.
const std::vector<std::string> kTheEight{"d-list-spt", "d-list-lpt", "t-list-spt", "t-list-lpt",
                                         "d-pack-nf",  "d-pack-ff",  "t-pack-nf",  "t-pack-ff"};

void the_eight(const Instance& instance) {
  for (const auto& name : kTheEight) benchmark::DoNotOptimize(find_algorithm(name).schedule(instance).makespan);
}

void all_registered(const Instance& instance) {
  for (const auto& algorithm : algorithms()) {
    if (algorithm->refusal(instance).empty()) benchmark::DoNotOptimize(algorithm->schedule(instance).makespan);
  }
}

const bool registered = [] {
  register_both("AllEight/d2", kD2, the_eight, benchmark::kMillisecond);
  register_both("AllRegistered/d2", kD2, all_registered, benchmark::kMillisecond);
  register_both("LowerBound/d4", kD4, [](const Instance& instance) {
    benchmark::DoNotOptimize(lower_bound(instance));
  }, benchmark::kMillisecond);
  for (const auto& name : algorithm_names()) {
    if (!find_algorithm(name).refusal(synthetic({1, 1, 1, 1})).empty()) continue;  // bsp-a*: one resource only
    register_both("Algorithm/" + name + "/d4", kD4, [name](const Instance& instance) {
      benchmark::DoNotOptimize(find_algorithm(name).schedule(instance).makespan);
    }, benchmark::kMillisecond);
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
