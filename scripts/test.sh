#!/usr/bin/env bash
# Sets up a fresh machine, builds with warnings as errors and runs the whole test suite — the real-cluster tests
# included (label slurm: a 3-node Slurm cluster on this machine, tests/slurm; they skip, saying why, without root).
#   scripts/test.sh             release build in build-ci/, ctest (the QEMU guests too: label guest, ~5 minutes)
#   scripts/test.sh --sanitize  ASan+UBSan build in build-asan/, ctest (no guests: tests/guest is not built)
#   scripts/test.sh --no-guest  the release build's suite without the guests (scripts/test-standalone.sh: CI boots
#                               each guest shape once, in the first run)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"

build_dir="$root/build-ci"
# COSCHED_NATIVE given, not left to the cache: a build folder configured when -march=native was the default would
# keep it, and its stream_bench dies with "Illegal instruction" in the guests whose CPU lacks this one's ISA.
cmake_args=(-DCOSCHED_WERROR=ON -DCOSCHED_NATIVE=OFF)
if command -v ccache >/dev/null; then
  # Paths under the root are hashed relative to the build folder, so a copy of the tree elsewhere
  # (scripts/test-standalone.sh) reuses these compilations.
  # Debug-info builds are shared too (CCACHE_NOHASHDIR: their DWARF may name another copy's build folder).
  cmake_args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
fi
ctest_args=()
if [ "${1:-}" = "--no-guest" ]; then
  ctest_args=(-LE guest)
fi
if [ "${1:-}" = "--sanitize" ]; then
  build_dir="$root/build-asan"
  # -O1 -g1: a third faster to compile than -O2 -g, stack traces keep functions and lines; no NDEBUG, so the
  # assertions (internal invariants) are checked as well. gcc 12 with ASan at -O1 gives false
  # -Wstringop-overflow warnings inside fmt (the release build keeps that warning).
  sanitize_flags="-O1 -g1 -Wno-stringop-overflow"
  cmake_args+=(-DCOSCHED_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOSCHED_BUILD_BENCH=OFF
               -DCMAKE_C_FLAGS_RELWITHDEBINFO="$sanitize_flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$sanitize_flags")
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
"$root/scripts/build.sh" "$build_dir" "${cmake_args[@]}"
# The Slurm tests' cluster (tests/slurm, docs/slurm-local.md): ctest's cleanup fixture stops it after the group;
# this stops it too when ctest itself is interrupted or killed, so that no daemon outlives the run.
stop_slurm_cluster() {
  bash "$root/scripts/local-slurm.sh" stop --dir "$build_dir/tests/slurm/cluster" --keep-logs >/dev/null 2>&1 || true
}
trap stop_slurm_cluster EXIT
trap 'exit 130' INT TERM
cd "$build_dir"
ctest --output-on-failure -j 2 --timeout 600 "${ctest_args[@]}"
