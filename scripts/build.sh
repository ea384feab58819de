#!/usr/bin/env bash
# Configures and builds cosched into a build folder. Usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
# COSCHED_BUILD_TARGETS="cosched stream_bench" builds only those targets (scripts/run.sh: the main job needs no
# test suite); unset, everything.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-$root/build}"
shift || true
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
targets=()
for target in ${COSCHED_BUILD_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
