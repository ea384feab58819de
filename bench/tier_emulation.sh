#!/usr/bin/env bash
# Does the emulated memory tier have the shape of a real one? Runs stream_bench's triad on one thread with the
# emulated backend for several fast fractions F, in alternating order over several rounds (so drift of this
# shared VM's bandwidth hits every F alike), and prints median time(F)/time(1).
#
# Checks (the issue's acceptance criteria; docs/emulation.md explains the model):
#   - time(0)/time(1) lies in [0.7, 1.3] x ratio
#   - the curve is close to linear: time(F)/time(1) ~ F + (1-F)*ratio; every point within 15 % of the straight
#     line through the measured end points, and falling as F grows
# Exit status 0 when both hold, 1 when not, 2 on bad usage.
#
# --llc additionally measures the cache caveat: a footprint that fits in the last-level cache, and a large array
# whose slow part alone fits (F = 0.95), both of which the emulation under-charges in DRAM traffic.
#
# Usage: bench/tier_emulation.sh [--bin PATH] [--rounds N] [--size-mib M] [--ratio R] [--reps N]
#                                [--fractions "0 0.25 ..."] [--llc]
set -euo pipefail

bin="${STREAM_BENCH:-build/bin/stream_bench}"
rounds=3
size_mib=128          # per array; 3 arrays = 384 MiB, far beyond the 32 MiB L3 of this machine
ratio=5
reps=10
fractions="0 0.25 0.5 0.75 1"
llc=0

die() { echo "tier_emulation.sh: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) bin="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --size-mib) size_mib="$2"; shift 2 ;;
    --ratio) ratio="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --fractions) fractions="$2"; shift 2 ;;
    --llc) llc=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done

[[ -x "$bin" ]] || die "no stream_bench at $bin (build it, or pass --bin / set STREAM_BENCH)"
"$bin" --help 2>&1 | grep -q -- '--tier-backend' || die "$bin has no --tier-backend option yet"
[[ "$rounds" =~ ^[0-9]+$ && "$rounds" -ge 3 ]] || die "--rounds must be at least 3"
[[ " $fractions " == *" 1 "* ]] || die "--fractions must include 1 (the reference)"

results="$(mktemp)"
trap 'rm -f "$results"' EXIT

# One stream_bench run; appends "label<TAB>json" to the results file.
run_one() {
  local label="$1" fraction="$2" size="$3"
  local json
  json="$("$bin" --kernel triad --threads 1 --fast-fraction "$fraction" --tier-backend emulated \
          --emulation-ratio "$ratio" --size-mib "$size" --reps "$reps" --json)"
  printf '%s\t%s\n' "$label" "$json" >> "$results"
}

read -r -a forward <<< "$fractions"
backward=()
for (( i=${#forward[@]}-1; i>=0; i-- )); do backward+=("${forward[i]}"); done

echo "stream_bench triad, 1 thread, emulated ratio $ratio, 3 arrays x $size_mib MiB, $reps reps, $rounds rounds"
for (( round=1; round<=rounds; round++ )); do
  if (( round % 2 == 1 )); then order=("${forward[@]}"); else order=("${backward[@]}"); fi
  echo "  round $round: F = ${order[*]}"
  for fraction in "${order[@]}"; do run_one "curve $fraction" "$fraction" "$size_mib"; done
done

if (( llc )); then
  echo "  cache caveat runs (3 x 2 MiB arrays fit the L3; F=0.95 of $size_mib MiB leaves a small slow part)"
  for (( round=1; round<=rounds; round++ )); do
    for fraction in 0 1; do run_one "small $fraction" "$fraction" 2; done
    for fraction in 0.95 1; do run_one "tail $fraction" "$fraction" "$size_mib"; done
  done
fi

/usr/bin/python3 - "$results" "$ratio" <<'PY'
import json, statistics, sys
path, ratio = sys.argv[1], float(sys.argv[2])
runs = {}
for line in open(path):
    label, text = line.rstrip("\n").split("\t", 1)
    group, fraction = label.split()
    record = json.loads(text)
    if not record["emulated"] or record["tier_backend"] != "emulated":
        sys.exit(f"run {label} did not use the emulated backend: {record['tier_backend']}")
    runs.setdefault(group, {}).setdefault(float(fraction), []).append(record)

def medians(group):
    return {f: statistics.median(r["median_time_s"] for r in rs) for f, rs in sorted(runs[group].items())}

curve = medians("curve")
reference = curve[1.0]
t0 = curve.get(0.0)
print(f"\n{'F':>6} {'fast MiB':>9} {'slow MiB':>9} {'median s':>9} {'t(F)/t(1)':>10} {'model':>7} {'vs line':>8}")
line = lambda f: (f * 1.0 + (1 - f) * (t0 / reference)) if t0 else None
worst = 0.0
for f, t in curve.items():
    r = runs["curve"][f][0]
    normalized = t / reference
    model = f + (1 - f) * ratio
    on_line = line(f)
    deviation = abs(normalized - on_line) / on_line if on_line else 0.0
    worst = max(worst, deviation)
    print(f"{f:6.2f} {r['fast_bytes']/2**20:9.1f} {r['slow_bytes']/2**20:9.1f} {t:9.4f} {normalized:10.3f} "
          f"{model:7.2f} {deviation*100:7.1f}%")

ok = True
if t0 is not None:
    end_ratio = t0 / reference
    inside = 0.7 * ratio <= end_ratio <= 1.3 * ratio
    ok &= inside
    print(f"\ntime(0)/time(1) = {end_ratio:.2f}; allowed [{0.7*ratio:.2f}, {1.3*ratio:.2f}] -> {'OK' if inside else 'OUT'}")
else:
    print("\n(no F = 0 run: end-point check skipped)")
times = [curve[f] for f in sorted(curve)]
falling = all(a >= b for a, b in zip(times, times[1:]))
linear = worst <= 0.15
ok &= falling and linear
print(f"largest deviation from the straight line through the end points: {worst*100:.1f}% (limit 15%) -> "
      f"{'OK' if linear else 'NOT LINEAR'}; time falls as F grows: {'yes' if falling else 'NO'}")

if "small" in runs:
    small = medians("small")
    tail = medians("tail")
    print(f"\ncache caveat: 3 x 2 MiB (fits L3): time(0)/time(1) = {small[0.0]/small[1.0]:.2f} "
          f"(model {ratio:.2f}) — slow passes re-read the L3, not DRAM")
    model_tail = 0.95 + 0.05 * ratio
    print(f"cache caveat: F = 0.95 of {runs['tail'][0.95][0]['array_bytes']/2**20:.0f} MiB arrays "
          f"(slow part {runs['tail'][0.95][0]['slow_bytes']/2**20:.1f} MiB): time(0.95)/time(1) = "
          f"{tail[0.95]/tail[1.0]:.3f} (model {model_tail:.3f})")
sys.exit(0 if ok else 1)
PY
