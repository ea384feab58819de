#!/usr/bin/env bash
# The main job (README): set up the machine, build, then measure every STREAM kernel on all allowed cores.
# Until the launcher exists this is a stream_bench sweep. Usage: scripts/run.sh [stream_bench options...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
for kernel in write ddot copy scale add triad; do
  "$root/build/bin/stream_bench" --kernel "$kernel" "$@"   # threads default to all allowed cores
  echo
done
