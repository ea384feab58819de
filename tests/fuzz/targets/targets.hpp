#pragma once
// The fuzz targets: each feeds one input to one cosched parser. A parser may reject the input by throwing
// cosched::Error (an expected outcome); any other exception, a crash, a sanitizer report, a hang or a runaway
// allocation is a finding. The same functions run under libFuzzer (driver/libfuzzer_main.cpp, built with
// -DCOSCHED_FUZZ=ON and clang) and in the normal test suite, which replays the seed corpus and every saved finding
// (tests/fuzz/replay_test.cpp). Each target is a few lines so it follows its parser's API when that changes.
#include <string_view>

#include "cosched/common/error.hpp"

namespace cosched::fuzz {

using TargetFunction = void (*)(std::string_view input);

// sched_targets.cpp
void instance_json(std::string_view input);  // sched::parse_instance
void schedule_json(std::string_view input);  // sched::parse_schedule against a small fixed instance
void swf_trace(std::string_view input);      // online::read_swf_bytes, to_swf, workload_from_swf
void jobs_csv(std::string_view input);       // online::parse_jobs_csv, written back and read again, as SWF
void cluster_manifest(std::string_view input);  // sched::parse_cluster_manifest, written back and read again
// profiler_targets.cpp
void platform_toml(std::string_view input);    // config::parse_platform_toml (the node file)
void sweep_toml(std::string_view input);       // profiler::load_sweep_config
void profile_csv(std::string_view input);      // profiler::read_profile_csv
void profile_sidecar(std::string_view input);  // profiler::parse_profile_sidecar
void kind_knowledge(std::string_view input);  // profiler::parse_kind_knowledge, written back and read again
// launcher_targets.cpp
void workload_toml(std::string_view input);  // config::parse_workload_toml
void workload_json(std::string_view input);  // config::parse_workload_json
void journal_jsonl(std::string_view input);  // launcher::parse_journal + replay_journal + summarize_replay
// platform_targets.cpp
void topology_xml(std::string_view input);  // platform::Topology::from_xml
// config_targets.cpp
void node_toml(std::string_view input);  // config::parse_node_toml (the node bandwidth model)

struct Target {
  const char* name;  // also the folder of its seeds (corpus/<name>/) and findings (regressions/<name>/)
  TargetFunction run;
};

inline constexpr Target kTargets[] = {
    {"instance_json", &instance_json}, {"schedule_json", &schedule_json},   {"platform_toml", &platform_toml},
    {"sweep_toml", &sweep_toml},       {"profile_csv", &profile_csv},       {"profile_sidecar", &profile_sidecar},
    {"workload_toml", &workload_toml}, {"workload_json", &workload_json},   {"journal_jsonl", &journal_jsonl},
    {"topology_xml", &topology_xml},   {"node_toml", &node_toml},           {"swf_trace", &swf_trace},
    {"cluster_manifest", &cluster_manifest}, {"jobs_csv", &jobs_csv}, {"kind_knowledge", &kind_knowledge},
};

// Runs one input: a cosched::Error is the parser saying no, and ends the run normally; anything else escapes.
inline void run_target(TargetFunction run, std::string_view input) {
  try {
    run(input);
  } catch (const Error&) {
  }
}

}  // namespace cosched::fuzz
