#!/usr/bin/env bash
# stream_bench against likwid-bench on this machine, alternating A/B so that drifts in the (shared, virtual)
# machine hit both alike. Prints every pair and, per kernel, the median ratio stream_bench / likwid.
#
#   bench/stream_vs_likwid.sh [ROUNDS] [BIN_DIR]      defaults: 7 rounds, build/bin
#   env: THREADS (2), SIZE_MIB (256, per array), REPS (50 stream_bench timed reps: ~0.5-1 s, like likwid's >= 1 s),
#        NICE (unset; e.g. -20 as root runs BOTH sides at that niceness, so that compile jobs sharing the machine
#        time-slice them less — the comparison stays fair, the absolute figures get closer to a quiet machine's)
#
# Units and bytes: likwid-bench prints MByte/s = 1e6 B/s and counts, like STREAM and stream_bench, the bytes
# loaded plus the bytes stored per element, without write-allocate traffic (triad: "Load bytes per element: 16,
# Store bytes per elem.: 8" = 24; copy: 8 + 8 = 16). So GB/s = MByte/s / 1000, no other conversion. likwid's -w
# size is the total over all arrays in 1e6-byte MB: triad 3 x 256 = 768MB, copy 2 x 256 = 512MB, i.e. 244 MiB per
# array against stream_bench's 256 MiB — both far beyond the 32 MiB L3, where the size no longer matters.
# likwid-bench needs no performance counters (it only times its loops), so it runs on a VM; it calibrates its own
# iteration count to run >= 1 s and reports total bytes / total time. stream_bench's like-for-like figure is
# mean_gbs (all reps' bytes / all reps' time); its median rep (the headline ratio) and best rep (STREAM's usual
# figure) are printed too.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-7}"
bin_dir="${2:-$root/build/bin}"
threads="${THREADS:-2}"
size_mib="${SIZE_MIB:-256}"
reps="${REPS:-50}"
# shellcheck source=bench/likwid_common.sh
source "$root/bench/likwid_common.sh"

stream_gbs() {  # kernel -> "median best mean" GB/s
  "${prefix[@]}" "$bin_dir/stream_bench" --kernel "$1" --threads "$threads" --size-mib "$size_mib" --reps "$reps" --json |
    /usr/bin/python3 -c 'import json, sys; r = json.load(sys.stdin); assert r["validated"]; print("%.3f %.3f %.3f" % (r["median_gbs"], r["best_gbs"], r["mean_gbs"]))'
}

measure_likwid() { l="$(likwid_rate "$likwid_test" "${total_mb}MB" MByte/s)"; }
measure_stream() { read -r sm sb sa <<<"$(stream_gbs "$kernel")"; }

echo "# kernel round likwid_GBs stream_median_GBs stream_best_GBs stream_mean_GBs ratio_median ratio_best ratio_mean"
for round in $(seq 1 "$rounds"); do
  for pair in "triad stream_mem_avx512 3" "copy copy_mem_avx512 2"; do
    read -r kernel likwid_test arrays <<<"$pair"
    total_mb=$((arrays * size_mib))
    in_alternating_order "$round" measure_likwid measure_stream
    record "$(awk -v k="$kernel" -v r="$round" -v l="$l" -v sm="$sm" -v sb="$sb" -v sa="$sa" \
      'BEGIN { printf "%-6s %2d %8.2f %8.2f %8.2f %8.2f %6.3f %6.3f %6.3f", k, r, l, sm, sb, sa, sm / l, sb / l, sa / l }')"
  done
done

/usr/bin/python3 - "$results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for kernel in ("triad", "copy"):
    mine = [r for r in rows if r[0] == kernel]
    ratio = lambda column: statistics.median(float(r[column]) for r in mine)
    lk = statistics.median(float(r[2]) for r in mine)
    print(f"{kernel:6s} median over {len(mine)} pairs: likwid {lk:.2f} GB/s; ratio stream_bench/likwid = "
          f"{ratio(6):.3f} (median rep), {ratio(8):.3f} (mean, like likwid), {ratio(7):.3f} (best rep)")
PY
