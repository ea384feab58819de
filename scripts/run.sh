#!/usr/bin/env bash
# The main job (README): set up the machine, build, then `cosched demo` — profile this node, plan a batch of
# STREAM tasks with all eight algorithms, launch each, compare observed with predicted makespans.
# Usage: scripts/run.sh [--quick] [--output DIR]   (the last line printed names the output folder)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build"
exec "$root/build/bin/cosched" demo "$@"
