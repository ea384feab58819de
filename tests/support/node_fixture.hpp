#pragma once
// A node bandwidth model for tests that run `cosched run --node` (tests/cli, tests/slurm): one pool holding both
// tiers (an emulated tier is the slow one's memory), so it is valid for any tier backend and no test calibrates.
#include <string>

namespace cosched::test_support {

inline const std::string kOnePoolNodeToml = R"(format_version = 1
[provenance]
host = "fixture"
date = "2026-11-25T12:00:00Z"
method = "a test fixture"
cosched_version = "0.1.0"
tier_backend = "emulated"
emulated = true
references = []
[[pools]]
name = "dram"
tiers = ["fast", "slow"]
cores = [1, 2]
gbs = [4.0, 5.0]
)";

}  // namespace cosched::test_support
