#!/usr/bin/env bash
# The kernels across the roofline (gemm, stencil, spmv, gups) against this machine's measured peaks: the
# compute-bound gemm against likwid-bench's peakflops (in-cache FMAs, the measured flop peak of the same cores),
# the bandwidth-bound stencil and spmv against likwid-bench's stream triad (the measured memory bandwidth), and
# gups on its own (no likwid kernel does random updates). Alternates A/B per round, as bench/stream_vs_likwid.sh.
#
#   bench/roofline_vs_likwid.sh [ROUNDS] [BIN_DIR]      defaults: 3 rounds, build/bin
#   env: THREADS (2), GEMM_MIB (32 per matrix: n = 2048), SIZE_MIB (128 per array for stencil and spmv),
#        GUPS_MIB (64: a 2^23-word table, 2^25 updates per rep),
#        REPS (10), WARMUP (3 untimed reps: OpenBLAS's first calls in a process and the cores' clock ramp make the
#        first two or three gemm reps 30-50 % slower; with 5 reps and 1 warm-up the median fell among them),
#        PEAK_TEST (peakflops_avx512_fma; peakflops_avx_fma without AVX-512), STREAM_TEST
#        (stream_mem_avx512), NICE (as in stream_vs_likwid.sh)
#
# Units: likwid-bench prints MFlops/s and MByte/s (1e6); stream_bench GFLOP/s, GB/s and GUP/s (1e9). peakflops
# runs on a small in-cache array (-w S0:<THREADS x 16>kB:<THREADS>), so its figure is the cores' arithmetic peak
# as likwid's loop reaches it (FMAs with one load per iteration), measured, not a data-sheet number.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-3}"
bin_dir="${2:-$root/build/bin}"
threads="${THREADS:-2}"
gemm_mib="${GEMM_MIB:-32}"
size_mib="${SIZE_MIB:-128}"
gups_mib="${GUPS_MIB:-64}"
reps="${REPS:-10}"
warmup="${WARMUP:-3}"
peak_test="${PEAK_TEST:-peakflops_avx512_fma}"
stream_test="${STREAM_TEST:-stream_mem_avx512}"
# Debian's OpenBLAS 0.3.21 predates Zen 4/5 and picks its AVX2 (Haswell) kernels there, half the AVX-512 peak;
# on a CPU with AVX-512 take the SkylakeX kernels unless told otherwise (stream_bench reports the core it got, and
# each kernel's problem line goes to stderr: an inherited OPENBLAS_CORETYPE=Haswell halves gemm).
if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-SkylakeX}"; fi
# shellcheck source=bench/likwid_common.sh
source "$root/bench/likwid_common.sh"

kernel_rate() {  # kernel size_mib -> "median best" figure of merit
  "${prefix[@]}" "$bin_dir/stream_bench" --kernel "$1" --threads "$threads" --size-mib "$2" --reps "$reps" --warmup "$warmup" --json |
    /usr/bin/python3 -c 'import json, sys; r = json.load(sys.stdin); assert r["validated"], r["validation_message"]
print("%.3f %.3f %s" % (r["median_merit"], r["best_merit"], r["merit_unit"]))
print("# %s: %s" % (r["kernel"], r["problem"]), file=sys.stderr)'
}

measure_reference() { ref="$(likwid_rate "$test" "$working_set" "$field")"; }
measure_kernel() { read -r km kb unit <<<"$(kernel_rate "$kernel" "$mib")"; }

echo "# kernel round reference reference_rate kernel_median kernel_best unit ratio_median ratio_best"
for round in $(seq 1 "$rounds"); do
  for entry in "gemm $gemm_mib $peak_test $((threads * 16))kB MFlops/s" \
               "stencil $size_mib $stream_test $((3 * size_mib))MB MByte/s" \
               "spmv $size_mib $stream_test $((3 * size_mib))MB MByte/s" \
               "gups $gups_mib - - -"; do
    read -r kernel mib test working_set field <<<"$entry"
    if [ "$test" = "-" ]; then
      measure_kernel
      ref=0
    else
      in_alternating_order "$round" measure_reference measure_kernel
    fi
    record "$(awk -v k="$kernel" -v r="$round" -v t="$test" -v ref="$ref" -v km="$km" -v kb="$kb" -v u="$unit" \
      'BEGIN { printf "%-7s %2d %-22s %9.2f %9.3f %9.3f %-7s %6.3f %6.3f", k, r, t, ref, km, kb, u,
               (ref > 0 ? km / ref : 0), (ref > 0 ? kb / ref : 0) }')"
  done
done

/usr/bin/python3 - "$results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for kernel in ("gemm", "stencil", "spmv", "gups"):
    mine = [r for r in rows if r[0] == kernel]
    med = lambda column: statistics.median(float(r[column]) for r in mine)
    if mine[0][2] == "-":
        print(f"{kernel:7s} median over {len(mine)} rounds: {med(4):.3f} {mine[0][6]} (median rep), "
              f"{med(5):.3f} (best rep); no likwid-bench reference")
    else:
        print(f"{kernel:7s} median over {len(mine)} rounds: {med(4):.3f} {mine[0][6]} (median rep), {med(5):.3f} "
              f"(best rep); {mine[0][2]} {med(3):.2f}; ratio {med(7):.3f} (median rep), {med(8):.3f} (best rep)")
PY
