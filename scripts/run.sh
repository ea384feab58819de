#!/usr/bin/env bash
# The main job (README): set up the machine, build what it needs (cosched and stream_bench; scripts/test.sh builds
# the test suite), then `cosched demo` — profile this node, plan a batch of STREAM tasks with every algorithm,
# launch each, compare observed with predicted makespans.
# Usage: scripts/run.sh [--quick] [--output DIR]   (the last line printed names the output folder)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
# A unity build (CMakeLists.txt says what it batches): a fresh clone's build is the newcomer's first wait.
COSCHED_BUILD_TARGETS="cosched stream_bench" "$root/scripts/build.sh" "$root/build" -DCMAKE_UNITY_BUILD=ON
exec "$root/build/bin/cosched" demo "$@"
