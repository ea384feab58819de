// The node's platform TOML (cosched::config) and the profiler's inputs: sweep TOML, profile CSV and its JSON
// sidecar (docs/formats.md, docs/profiler.md).
#include "cosched/config/platform.hpp"
#include "cosched/profiler/knowledge_store.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include <stdexcept>

#include "scratch_file.hpp"
#include "targets.hpp"

namespace cosched::fuzz {

void platform_toml(std::string_view input) { (void)config::parse_platform_toml(input, "fuzz-platform.toml"); }

void sweep_toml(std::string_view input) { (void)profiler::load_sweep_config(scratch_file("sweep.toml", input)); }

void profile_csv(std::string_view input) { (void)profiler::read_profile_csv(scratch_file("profile.csv", input)); }

void profile_sidecar(std::string_view input) {
  (void)profiler::parse_profile_sidecar(input, "fuzz-profile.json");
}

// What the parser accepts, its writer writes, and the parser reads back the same (the writer's text again).
void kind_knowledge(std::string_view input) {
  const profiler::KindKnowledge knowledge = profiler::parse_kind_knowledge(input, "fuzz-knowledge.json");
  const std::string text = profiler::kind_knowledge_to_json(knowledge);
  if (profiler::kind_knowledge_to_json(profiler::parse_kind_knowledge(text, "fuzz-knowledge-again.json")) != text) {
    throw std::logic_error("a kind's knowledge does not read back as it was written");
  }
}

}  // namespace cosched::fuzz
