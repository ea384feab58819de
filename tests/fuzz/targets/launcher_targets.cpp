// The launcher's inputs: workloads (TOML through the profiler's reader and expanded to task ids; JSON) and the run
// journal (JSON lines), read and summarized as `cosched report` does (docs/launcher.md, docs/formats.md).
#include "cosched/launcher/report.hpp"
#include "cosched/launcher/workload.hpp"
#include "scratch_file.hpp"
#include "targets.hpp"

namespace cosched::fuzz {

void workload_toml(std::string_view input) {
  // The KNL node of configs/platforms/knl-7210-flat.toml, so footprints given in percent of the fast tier resolve.
  static const auto platform = scratch_file("workload-platform.toml", R"(name = "knl-7210-flat"
cores = 64
[fast_memory]
capacity_gib = 16
chunks = 20
tier_backend = "memkind"
)");
  (void)launcher::load_workload(scratch_file("workload.toml", input), platform);
}

void workload_json(std::string_view input) { (void)launcher::load_workload(scratch_file("workload.json", input)); }

void journal_jsonl(std::string_view input) {
  (void)launcher::summarize_journal(scratch_file("journal.jsonl", input));
}

}  // namespace cosched::fuzz
