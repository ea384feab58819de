#!/usr/bin/env bash
# Runs scripts/test.sh in a copy of the committed tree (HEAD) that has no shared/ folder beside it: what a user's
# `git clone` of this repository alone gets. Proves that no test needs the workplace's ../shared (tests that want
# its large traces must skip) and that nothing untracked is needed.
#   scripts/test-standalone.sh [--keep]     --keep: leave the copy (and its build) in place for inspection
# ccache (CCACHE_BASEDIR is the copy's root, see scripts/test.sh) makes the second build cheap.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
keep=0
[ "${1:-}" = "--keep" ] && keep=1

if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "test-standalone: note: uncommitted changes are not part of the copy (it is HEAD)" >&2
fi
scratch="$(mktemp -d "${TMPDIR:-/tmp}/cosched-standalone.XXXXXX")"
if [ "$keep" -eq 0 ]; then trap 'rm -rf "$scratch"' EXIT; fi
copy="$scratch/cosched"
mkdir "$copy"
git -C "$root" archive --format=tar HEAD | tar -x -C "$copy"
if [ -e "$scratch/shared" ] || [ -e "$copy/../shared" ]; then
  echo "test-standalone: $scratch/shared exists; the copy would not stand alone" >&2
  exit 1
fi
echo "test-standalone: $(git -C "$root" rev-parse --short HEAD) copied to $copy (no ../shared)"
bash "$copy/scripts/test.sh" --no-guest  # the guests ran in CI's first step (scripts/test.sh)
echo "test-standalone: passed"
if [ "$keep" -eq 1 ]; then echo "test-standalone: kept $copy"; fi
