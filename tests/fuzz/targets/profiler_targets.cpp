// The node's platform TOML (cosched::config) and the profiler's inputs: sweep TOML, profile CSV and its JSON
// sidecar (docs/formats.md, docs/profiler.md).
#include "cosched/config/platform.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "scratch_file.hpp"
#include "targets.hpp"

namespace cosched::fuzz {

void platform_toml(std::string_view input) { (void)config::parse_platform_toml(input, "fuzz-platform.toml"); }

void sweep_toml(std::string_view input) { (void)profiler::load_sweep_config(scratch_file("sweep.toml", input)); }

void profile_csv(std::string_view input) { (void)profiler::read_profile_csv(scratch_file("profile.csv", input)); }

void profile_sidecar(std::string_view input) {
  (void)profiler::parse_profile_sidecar(input, "fuzz-profile.json");
}

}  // namespace cosched::fuzz
