#include <fmt/format.h>

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
  say(fmt::format("cosched demo{}: profile this node, plan a STREAM batch with the eight algorithms of Sun et al., "
                  "launch each plan and compare observed with predicted makespans",
                  options.quick ? " (quick)" : ""));
  say("[1/5] choosing the batch and calibrating kernel passes ...");
  const DemoSetup setup = make_setup(options);
  say(fmt::format("      node: {} cores, fast tier {} MiB in {} chunks, tier backend {}{}", setup.platform.cores,
                  setup.platform.fast_capacity_bytes >> 20, setup.platform.fast_chunks, setup.tier.backend,
                  setup.tier.emulated() ? fmt::format(" — EMULATED (slow tier streamed {}x; no real fast memory here)",
                                                      setup.tier.emulation_ratio)
                                        : ""));
  std::size_t tasks = 0;
  for (const auto& entry : setup.batch) tasks += entry.count;
  say(fmt::format("      batch: {} tasks (write, ddot, triad x {} and {} MiB), passes per task {}", tasks,
                  setup.footprints[0] >> 20, setup.footprints[1] >> 20,
                  fmt::join([&] {
                    std::vector<unsigned> p;
                    for (const auto& entry : setup.batch) p.push_back(entry.passes);
                    return p;
                  }(),
                            "/")));

  say("[2/5] profiling each task type in isolation, as launched (cores x fast chunks) ...");
  const auto tiered_csv = profile_tasks(setup, setup.tier, "tiered", true);
  say("[3/5] profiling with the tier left to the system (backend none) ...");
  const launcher::TierSetup system_tier =
      launcher::make_tier_setup("none", setup.tier.emulation_ratio, setup.tier.chunk_bytes);
  const auto system_csv = profile_tasks(setup, system_tier, "system", false);

  const auto write_instance = [&](sched::Instance instance, const std::string& name) {
    write_text_file(setup.output / name, sched::instance_to_json(instance) + "\n", setup.overwrite(), "instance");
    return instance;
  };
  const sched::Instance tiered = write_instance(make_instance(setup, tiered_csv, false), "instance.json");
  const sched::Instance slow = write_instance(make_instance(setup, tiered_csv, true), "instance-cores-only-slow.json");
  const sched::Instance system =
      write_instance(make_instance(setup, system_csv, true), "instance-cores-only-system.json");

  std::vector<RunRow> rows;
  const auto names = sched::algorithm_names();
  say(fmt::format("[4/5] launching the {} plans (cores + fast memory scheduled) ...", names.size()));
  for (std::size_t i = 0; i < names.size(); ++i) {
    rows.push_back(plan_and_launch(setup, tiered, "cores+fast", names[i], setup.tier));
    say(fmt::format("      [{}/{}] {:<11} predicted {:7.2f} s, observed {:7.2f} s ({:+.1f} %)", i + 1, names.size(),
                    names[i], rows.back().predicted, rows.back().observed, (rows.back().ratio() - 1) * 100));
  }
  say("[5/5] Fig. 3(b): cores only, all memory slow / tier left to the system ...");
  for (const auto& algorithm : setup.fig3b_algorithms) {
    rows.push_back(plan_and_launch(setup, slow, "cores-only-slow", algorithm, setup.tier));
    rows.push_back(plan_and_launch(setup, system, "cores-only-system", algorithm, system_tier));
    say(fmt::format("      {:<11} all slow: observed {:7.2f} s; system: observed {:7.2f} s", algorithm,
                    rows[rows.size() - 2].observed, rows.back().observed));
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  write_results(setup, rows, total);
  return setup.output;
}

}  // namespace cosched::demo
