// Workloads (TOML and JSON, cosched::config, with the kernel names stream_bench knows) and the run journal (JSON
// lines), parsed, replayed and summarized as `cosched report` does (docs/formats.md).
#include <string>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/launcher/journal/file.hpp"
#include "cosched/launcher/journal/replay.hpp"
#include "cosched/launcher/report.hpp"
#include "cosched/exec/workload_file.hpp"
#include "targets.hpp"

namespace cosched::fuzz {
namespace {

// The KNL node of configs/platforms/knl-7210-flat.toml, so footprints given in percent of the fast tier resolve.
const config::WorkloadReadOptions& read_options() {
  static const config::WorkloadReadOptions options = [] {
    config::WorkloadReadOptions made;
    made.platform = config::knl_7210_flat_platform();
    made.known_kernels = exec::stream_kernel_names();
    return made;
  }();
  return options;
}

}  // namespace

void workload_toml(std::string_view input) {
  (void)config::parse_workload_toml(input, "fuzz-workload.toml", read_options());
}

void workload_json(std::string_view input) {
  (void)config::parse_workload_json(input, "fuzz-workload.json", read_options());
}

void journal_jsonl(std::string_view input) {
  const auto contents = launcher::parse_journal(std::string(input), "fuzz-journal.jsonl");
  (void)launcher::summarize_replay(launcher::replay_journal(contents));
}

}  // namespace cosched::fuzz
