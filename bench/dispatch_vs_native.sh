#!/usr/bin/env bash
# The run-time dispatched STREAM loops (the default build: baseline x86-64 with AVX2 and AVX-512 variants chosen
# from cpuid, docs/stream_bench.md "Instruction sets") against a -march=native build of the same source and against
# likwid-bench, in the same run: each round runs the three in a rotating order, so drifts of this (shared, virtual)
# machine hit all alike. Prints every round and the median ratios dispatched / native and each / likwid.
#
#   bench/dispatch_vs_native.sh [ROUNDS] [DISPATCHED_BIN] [NATIVE_BIN]    defaults: 7, build/bin, build-native/bin
#   env: THREADS (2), SIZE_MIB (256 per array), REPS (50), NICE (as bench/stream_vs_likwid.sh)
# The native build: cmake -S . -B build-native -DCOSCHED_NATIVE=ON && cmake --build build-native --target stream_bench
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-7}"
bin_dir="${2:-$root/build/bin}"
native_dir="${3:-$root/build-native/bin}"
threads="${THREADS:-2}"
size_mib="${SIZE_MIB:-256}"
reps="${REPS:-50}"
# shellcheck source=bench/likwid_common.sh
source "$root/bench/likwid_common.sh"
[ -x "$native_dir/stream_bench" ] ||
  { echo "no $native_dir/stream_bench: build it with -DCOSCHED_NATIVE=ON" >&2; exit 1; }

stream_run() {  # BIN_DIR KERNEL -> "median_gbs mean_gbs kernel_isa"
  "${prefix[@]}" "$1/stream_bench" --kernel "$2" --threads "$threads" --size-mib "$size_mib" --reps "$reps" --json |
    /usr/bin/python3 -c 'import json, sys; r = json.load(sys.stdin); assert r["validated"]
print("%.3f %.3f %s" % (r["median_gbs"], r["mean_gbs"], r["kernel_isa"]))'
}
measure_dispatched() { read -r dm da disa <<<"$(stream_run "$bin_dir" "$kernel")"; }
measure_native() { read -r nm na nisa <<<"$(stream_run "$native_dir" "$kernel")"; }
measure_likwid() { l="$(likwid_rate "$likwid_test" "${total_mb}MB" MByte/s)"; }
sides=(measure_dispatched measure_native measure_likwid)

echo "# $(date -u +%FT%TZ) $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo "# kernel round isa dispatched_median native_median likwid dispatched/native(median) dispatched/native(mean)" \
     "dispatched/likwid(mean) native/likwid(mean) load1"
for round in $(seq 1 "$rounds"); do
  for pair in "triad stream_mem_avx512 3" "copy copy_mem_avx512 2"; do
    read -r kernel likwid_test arrays <<<"$pair"
    total_mb=$((arrays * size_mib))
    for k in 0 1 2; do "${sides[$(((round + k) % 3))]}"; done
    record "$(awk -v k="$kernel" -v r="$round" -v isa="$disa/$nisa" -v dm="$dm" -v da="$da" -v nm="$nm" -v na="$na" \
      -v l="$l" -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
        printf "%-6s %2d %-13s %8.2f %8.2f %8.2f %6.3f %6.3f %6.3f %6.3f %5s",
               k, r, isa, dm, nm, l, dm / nm, da / na, da / l, na / l, load }')"
  done
done
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"

/usr/bin/python3 - "$results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for kernel in ("triad", "copy"):
    mine = [r for r in rows if r[0] == kernel]
    med = lambda column: statistics.median(float(r[column]) for r in mine)
    spread = lambda column: (min(float(r[column]) for r in mine), max(float(r[column]) for r in mine))
    lo, hi = spread(6)
    print(f"{kernel:6s} {len(mine)} rounds: dispatched/native = {med(6):.3f} (median rep; range {lo:.3f}-{hi:.3f}), "
          f"{med(7):.3f} (mean); dispatched/likwid = {med(8):.3f}, native/likwid = {med(9):.3f} (mean, like likwid)")
PY
