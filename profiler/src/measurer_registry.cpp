#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "cosched/common/error.hpp"
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

std::vector<std::string> measurer_names() {
  std::vector<std::string> names;
  for (const auto& entry : measurer_table()) names.push_back(entry.name);
  return names;
}

const MeasurerKind& measurer_kind(std::string_view name) { return find_entry(name).kind; }

std::unique_ptr<PointMeasurer> make_measurer(std::string_view name, const MeasurerOptions& options) {
  const auto& entry = find_entry(name);
  if (options.passes != 1 && !entry.kind.times_whole_tasks) {
    throw UsageError(fmt::format("--passes / passes applies to measurers that time whole tasks, not to '{}' "
                                 "(it times each pass itself)",
                                 name));
  }
  return entry.make(options);
}

}  // namespace cosched::profiler
