#!/usr/bin/env bash
# Installs what cosched needs on a Debian 12 machine, only what is missing. Idempotent, non-interactive.
# Usage: scripts/setup.sh [--bench]   (--bench: also the programs bench/batch_vs_naive.py runs, docs/end-to-end.md)
set -euo pipefail

packages=(
  build-essential cmake pkg-config git file
  libhwloc-dev hwloc libxml2-dev libmemkind-dev libnuma-dev numactl
  libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libfmt-dev zlib1g-dev
  coinor-libclp-dev                       # the LP lower bound on sum w_j C_j (seed 001, sched/bicriteria)
  libgtest-dev libgmock-dev libbenchmark-dev
  likwid
  libopenblas-dev                         # stream_bench's gemm kernel (cblas_dgemm)
  ccache                                  # scripts/test.sh: cheap rebuilds (CI builds the tree several times)
  clang-14 libclang-rt-14-dev libomp-14-dev  # scripts/fuzz.sh: libFuzzer + sanitizers, OpenMP for clang
  # python3-munkres first: it satisfies python3-fonttools' "python3-scipy | python3-munkres", which matplotlib needs;
  # otherwise apt takes scipy, which pulls pythran, libboost-dev (thousands of headers) and the Python headers, which
  # the plots never use: 23 packages, 33 MB; on a fresh Debian 12 their unpacking took 9 s of the 61 s apt step at
  # load average 2, 43 s of 138 s at load average 3-5.
  python3-munkres python3 python3-matplotlib python3-pandas
  slurmd slurmctld slurm-client munge     # tests/slurm: a real multi-node Slurm cluster on this machine (root only)
  qemu-system-x86 busybox-static          # tests/guest: QEMU guests with KNL, Xeon Max and CXL memory shapes (TCG)
)

case "${1:-}" in
  "") ;;
  --bench)
    # configs/workloads/debian-programs.json: real programs from Debian packages, moldable by threads (xz, zstd,
    # pigz, ImageMagick's OpenMP convert; sort is coreutils', xargs findutils').
    packages+=(xz-utils zstd pigz imagemagick-6.q16 findutils coreutils) ;;
  *) echo "usage: scripts/setup.sh [--bench]" >&2; exit 2 ;;
esac

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null; then
    # A minimal Debian has no sudo: say what to do instead of bash's "sudo: command not found".
    echo "setup: ${#missing[@]} packages missing and sudo is not installed: run scripts/setup.sh as root once" \
         "(su -c scripts/setup.sh), or install sudo and add $(id -un) to group sudo" >&2
    exit 1
  fi
  sudo_cmd=(sudo)
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
