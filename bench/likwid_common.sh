# Sourced by the bench scripts that compare stream_bench with likwid-bench (stream_vs_likwid.sh,
# roofline_vs_likwid.sh): the checks, the NICE prefix, the results file, and likwid-bench's rate.
# Expects `bin_dir` and `threads` to be set; sets `prefix` and `results` (removed on exit).
prefix=()
if [ -n "${NICE:-}" ]; then prefix=(nice -n "$NICE"); fi

command -v likwid-bench >/dev/null || { echo "likwid-bench not found: install the Debian package 'likwid'" >&2; exit 1; }
[ -x "$bin_dir/stream_bench" ] || { echo "no $bin_dir/stream_bench: build first (scripts/build.sh)" >&2; exit 1; }

results="$(mktemp)"
trap 'rm -f "$results"' EXIT

# likwid_rate TEST WORKING_SET FIELD: likwid-bench's FIELD (MByte/s or MFlops/s, 1e6 units) / 1000, i.e. GB/s or
# GFLOP/s, for TEST on `threads` threads of socket 0 over WORKING_SET (e.g. 768MB, 32kB).
likwid_rate() {
  "${prefix[@]}" likwid-bench -t "$1" -w "S0:${2}:${threads}" 2>&1 |
    awk -v field="$3" '$0 ~ "^" field ":" { printf "%.3f\n", $2 / 1000; found = 1 } END { if (!found) exit 1 }'
}

# in_alternating_order ROUND FIRST SECOND: runs the functions FIRST and SECOND (which set the caller's variables),
# FIRST first in odd rounds and SECOND first in even ones, so neither side always runs on a warmer or cooler machine.
in_alternating_order() {
  if [ $(($1 % 2)) -eq 1 ]; then "$2"; "$3"; else "$3"; "$2"; fi
}

# record LINE: prints a result line and keeps it for the summary.
record() {
  echo "$1"
  echo "$1" >>"$results"
}
