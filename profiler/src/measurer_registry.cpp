#include <algorithm>
#include <cassert>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "cosched/common/error.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "knl_measurer.hpp"
#include "process/process_measurers.hpp"
#include "stream/stream_measurer.hpp"

namespace cosched::profiler {

namespace {

struct MeasurerEntry {
  std::string name;
  MeasurerFactory make;
  MeasurerKind kind;
};

// The built-in rows are explicit (not self-registering objects): a static library drops object files nothing
// references, which would silently lose a registrar. A measurer of this library is one row here; a library user's
// own measurer is added through register_measurer.
std::vector<MeasurerEntry>& measurer_table() {
  static std::vector<MeasurerEntry> table = [] {
    std::vector<MeasurerEntry> rows;
    rows.push_back({"knl-model", [](const MeasurerOptions& options) { return make_knl_model_measurer(options); },
                    MeasurerKind{[] { return config::knl_7210_flat_platform(); }, false}});
    rows.push_back({"stream", [](const MeasurerOptions& options) { return make_stream_measurer(options); }, {}});
    MeasurerKind whole_tasks;
    whole_tasks.times_whole_tasks = true;
    whole_tasks.default_passes = kDefaultProcessPasses;
    rows.push_back({"process", [](const MeasurerOptions& options) { return make_process_measurer(options); },
                    whole_tasks});
    rows.push_back({std::string(kCommandMeasurer),
                    [](const MeasurerOptions& options) { return make_command_measurer(options); }, {}});
    return rows;
  }();
  return table;
}

const MeasurerEntry& find_entry(std::string_view name) {
  for (const auto& entry : measurer_table()) {
    if (entry.name == name) return entry;
  }
  throw UsageError(fmt::format("unknown measurer '{}' (known: {})", name, fmt::join(measurer_names(), ", ")));
}

}  // namespace

void register_measurer(std::string name, MeasurerFactory factory, MeasurerKind kind) {
  auto& table = measurer_table();
  for (const auto& entry : table) {
    if (entry.name == name) throw std::logic_error("measurer '" + name + "' is registered twice");
  }
  table.push_back({std::move(name), std::move(factory), std::move(kind)});
}

PassCounts pass_counts(const std::vector<unsigned>& counts, std::string_view what) {
  if (counts.empty() || counts.size() > 2) {
    throw UsageError(fmt::format("{}: give one pass count or two (low,high), got {}", what, counts.size()));
  }
  for (const unsigned count : counts) {
    if (count < 1 || count > config::kMaxPasses) {
      throw UsageError(fmt::format("{}: passes must be from 1 to {}, got {}", what, config::kMaxPasses, count));
    }
  }
  if (counts.size() == 1) return {counts[0], 0};
  if (counts[1] <= counts[0]) {
    throw UsageError(fmt::format("{}: the second pass count must be larger than the first, got {},{}", what,
                                 counts[0], counts[1]));
  }
  return {counts[0], counts[1]};
}

PassSplit split_by_passes(double low_s, double high_s, const PassCounts& passes) {
  assert(passes.separates_fixed_cost());
  const double floor = 1e-3 * high_s / passes.high;
  const double difference = (high_s - low_s) / (passes.high - passes.low);
  PassSplit split;
  split.resolved = difference > floor;
  split.per_pass_s = split.resolved ? difference : floor;
  split.fixed_s = std::max(0.0, low_s - passes.low * split.per_pass_s);
  return split;
}

nlohmann::json pass_counts_json(const PassCounts& passes) {
  if (!passes.separates_fixed_cost()) return passes.low;
  return nlohmann::json::array({passes.low, passes.high});
}

std::vector<std::string> measurer_names() {
  std::vector<std::string> names;
  for (const auto& entry : measurer_table()) names.push_back(entry.name);
  return names;
}

const MeasurerKind& measurer_kind(std::string_view name) { return find_entry(name).kind; }

std::unique_ptr<PointMeasurer> make_measurer(std::string_view name, const MeasurerOptions& options) {
  const auto& entry = find_entry(name);
  if (options.passes != PassCounts{} && !entry.kind.times_whole_tasks) {
    throw UsageError(fmt::format("--passes / passes applies to measurers that time whole tasks, not to '{}' "
                                 "(it times each pass itself)",
                                 name));
  }
  return entry.make(options);
}

}  // namespace cosched::profiler
