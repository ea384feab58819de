// The profiler's inputs: platform (node) TOML, sweep TOML, profile CSV and its JSON sidecar (docs/formats.md,
// docs/profiler.md).
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/profiler/platform_config.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "scratch_file.hpp"
#include "targets.hpp"

namespace cosched::fuzz {

void platform_toml(std::string_view input) {
  (void)profiler::load_platform_config(scratch_file("platform.toml", input));
}

void sweep_toml(std::string_view input) { (void)profiler::load_sweep_config(scratch_file("sweep.toml", input)); }

void profile_csv(std::string_view input) { (void)profiler::read_profile_csv(scratch_file("profile.csv", input)); }

void profile_sidecar(std::string_view input) {
  const auto csv = scratch_file("sidecar.csv", std::string(profiler::kProfileCsvHeader) +
                                                   "\ntriad,268435456,1,0,0.1391,0.1382,0.142,10,1.93\n");
  (void)scratch_file("sidecar.json", input);  // sidecar_path(sidecar.csv)
  (void)profiler::load_profile_set({csv});
}

}  // namespace cosched::fuzz
