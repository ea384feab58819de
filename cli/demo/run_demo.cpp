#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>

#include "cosched/common/text_file.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/io.hpp"
#include "demo/demo.hpp"
#include "demo/demo_setup.hpp"

namespace cosched::demo {

std::filesystem::path run_demo(const DemoOptions& options) {
  check_demo_output(options);  // before any work: a bad --output is refused at once
  const auto begin = std::chrono::steady_clock::now();
  std::FILE* out = options.out;
  const auto say = [out](const std::string& text) {
    fmt::print(out, "{}\n", text);
    std::fflush(out);
  };
  std::vector<std::string> names = options.algorithms;
  if (names.empty()) {
    const auto registered = sched::algorithm_names();
    const std::size_t count = std::min<std::size_t>(9, registered.size());
    names.assign(registered.begin(), registered.begin() + static_cast<std::ptrdiff_t>(count));
  }
  say(fmt::format("cosched demo{}: calibrate and profile this node, plan a STREAM batch with the {} algorithms (the "
                  "eight of Sun et al. and a bandwidth-aware one), launch each plan and compare observed with "
                  "predicted makespans — the paper's model and the contention-aware one",
                  options.quick ? " (quick)" : "", names.size()));
  say("[1/6] choosing the batch, calibrating kernel passes and the node's memory bandwidth ...");
  DemoSetup setup = make_setup(options);
  calibrate_bandwidth(setup);
  say(fmt::format("      node: {} cores, fast tier {} MiB in {} chunks, tier backend {}{}", setup.platform.cores,
                  setup.platform.fast_capacity_bytes >> 20, setup.platform.fast_chunks, setup.tier.backend,
                  setup.tier.emulated() ? fmt::format(" — EMULATED (slow tier streamed {}x; no real fast memory here)",
                                                      setup.tier.emulation_ratio)
                                        : ""));
  std::size_t tasks = 0;
  for (const auto& entry : setup.batch) tasks += entry.count;
  for (const auto& pool : setup.node.pools) {
    std::vector<std::string> points;
    for (std::size_t k = 0; k < pool.bandwidth.cores.size(); ++k) {
      points.push_back(fmt::format("{} cores {:.1f} GB/s", pool.bandwidth.cores[k], pool.bandwidth.gbs[k]));
    }
    say(fmt::format("      memory pool {} (tiers {}): {}{}; calibrated in {:.1f} s, node.toml", pool.name,
                    fmt::join(pool.tiers, "+"), fmt::join(points, ", "),
                    setup.node.provenance.emulated ? " — EMULATED tier: both tiers are this one DRAM" : "",
                    setup.calibration_s));
  }
  say(fmt::format("      batch: {} tasks (write, ddot, triad x {} and {} MiB), passes per task {}", tasks,
                  setup.footprints[0] >> 20, setup.footprints[1] >> 20,
                  fmt::join([&] {
                    std::vector<unsigned> p;
                    for (const auto& entry : setup.batch) p.push_back(entry.passes);
                    return p;
                  }(),
                            "/")));

  say("[2/6] profiling each task type in isolation, as launched (cores x fast chunks) ...");
  const auto tiered_csv = profile_tasks(setup, setup.tier, "tiered", true);
  say("[3/6] profiling with the tier left to the system (backend none) ...");
  const launcher::TierSetup system_tier =
      launcher::make_tier_setup("none", setup.tier.emulation_ratio, setup.tier.chunk_bytes);
  const auto system_csv = profile_tasks(setup, system_tier, "system", false);

  const auto write_instance = [&](sched::Instance instance, const std::string& name) {
    write_text_file(setup.output / name, sched::instance_to_json(instance) + "\n", setup.overwrite(), "instance");
    return instance;
  };
  const sched::Instance tiered = write_instance(make_instance(setup, tiered_csv, setup.tier, false), "instance.json");
  const sched::Instance slow =
      write_instance(make_instance(setup, tiered_csv, setup.tier, true), "instance-cores-only-slow.json");
  const sched::Instance system =
      write_instance(make_instance(setup, system_csv, system_tier, true), "instance-cores-only-system.json");

  std::vector<RunRow> rows;
  say(fmt::format("[4/6] launching the {} plans (cores + fast memory scheduled) ...", names.size()));
  for (std::size_t i = 0; i < names.size(); ++i) {
    rows.push_back(plan_and_launch(setup, tiered, "cores+fast", names[i], setup.tier));
    const RunRow& row = rows.back();
    say(fmt::format("      [{}/{}] {:<11} predicted {:7.2f} s (paper) {} (contention), observed {:7.2f} s", i + 1,
                    names.size(), names[i], row.predicted,
                    row.predicted_contention ? fmt::format("{:7.2f} s", *row.predicted_contention) : "      -",
                    row.observed));
  }
  // The noise floor: the last plan (the bandwidth-aware one) again, unchanged, to see what run-to-run noise alone
  // does to an observed makespan.
  NoiseFloor noise{names.back(), {rows.back().observed}};
  say(fmt::format("[5/6] noise floor: the {} plan launched {} more times ...", noise.algorithm,
                  setup.noise_launches - 1));
  for (unsigned repeat = 1; repeat < setup.noise_launches; ++repeat) {
    noise.observed.push_back(plan_and_launch(setup, tiered, "cores+fast", noise.algorithm, setup.tier, repeat).observed);
  }
  say(fmt::format("      observed {:.3f} s: ±{:.1f} % (half range / median)", fmt::join(noise.observed, " s, "),
                  noise.relative_half_range() * 100));
  say("[6/6] Fig. 3(b): cores only, all memory slow / tier left to the system ...");
  for (const auto& algorithm : setup.fig3b_algorithms) {
    rows.push_back(plan_and_launch(setup, slow, "cores-only-slow", algorithm, setup.tier));
    rows.push_back(plan_and_launch(setup, system, "cores-only-system", algorithm, system_tier));
    say(fmt::format("      {:<11} all slow: observed {:7.2f} s; system: observed {:7.2f} s", algorithm,
                    rows[rows.size() - 2].observed, rows.back().observed));
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  write_results(setup, rows, noise, total);
  return setup.output;
}

}  // namespace cosched::demo
