#!/usr/bin/env bash
# Boots one machine shape of the test suite's QEMU guests (tests/guest/shapes/*.sh, docs/guest.md) under TCG (no
# KVM needed) with a kernel and an initramfs, and writes the guest's console to TRANSCRIPT.
#   scripts/guest/boot.sh SHAPE_FILE KERNEL INITRAMFS TRANSCRIPT [TIMEOUT_S]
# A shape file is bash that calls, in any order:
#   cpus N [SOCKETS]                  the guest's CPUs (default 1 socket)
#   cpu_model NAME                    QEMU's -cpu (default max: every feature TCG emulates, AVX2 but no AVX-512)
#   node ID SIZE CPUS INITIATOR       a NUMA node: memory (QEMU size: 512M, 2G), its CPUs ("" for none, "0-3")
#                                     and the node whose CPUs reach it best (HMAT's initiator; itself if it has CPUs)
#   distance A B VALUE                the SLIT entry both ways (local is 10)
#   hmat INITIATOR TARGET NS BW       HMAT: access latency in ns and bandwidth in QEMU's binary units (90G = 90 GiB/s,
#                                     90000M = 90000 MiB/s); QEMU stores one initiator's bandwidths as 16-bit
#                                     multiples of one power of two, so give round figures (429G, not 439453M)
#   kernel_args WORD...               appended to the kernel command line (cosched.threads=N, ...)
# Exit 77 with one line when there is no qemu-system-x86_64 (or $COSCHED_GUEST_QEMU, another QEMU to use); exit 1
# when the guest did not finish its checks (no "@@done" line) within TIMEOUT_S (default 300). A boot that has not
# reached /init within $COSCHED_GUEST_BOOT_WAIT s (default 90) is stopped and made once more.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 SHAPE_FILE KERNEL INITRAMFS TRANSCRIPT [TIMEOUT_S]" >&2; exit 2; }
shape_file="$1" kernel="$2" initramfs="$3" transcript="$4" timeout_s="${5:-300}"
qemu=$(command -v "${COSCHED_GUEST_QEMU:-qemu-system-x86_64}" || true)
[ -n "$qemu" ] || { echo "guest boot: no ${COSCHED_GUEST_QEMU:-qemu-system-x86_64} (apt-get install qemu-system-x86, or" \
                         "scripts/setup.sh)" >&2
                    exit 77; }

cpu_count=1 socket_count=1 model=max total_mib=0
objects=() nodes=() dist_args=() hmat_args=() append=(console=ttyS0 panic=-1 quiet)
cpus() { cpu_count="$1"; socket_count="${2:-1}"; }
cpu_model() { model="$1"; }
node() {
  local id="$1" size="$2" node_cpus="$3" initiator="$4"
  objects+=(-object "memory-backend-ram,id=mem$id,size=$size")
  nodes+=("node,nodeid=$id,memdev=mem$id${node_cpus:+,cpus=$node_cpus}|$initiator")
  case "$size" in *G) total_mib=$((total_mib + ${size%G} * 1024)) ;; *M) total_mib=$((total_mib + ${size%M})) ;; esac
}
distance() { dist_args+=(-numa "dist,src=$1,dst=$2,val=$3"); }
hmat() {
  hmat_args+=(-numa "hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-latency,latency=$3")
  hmat_args+=(-numa "hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-bandwidth,bandwidth=$4")
}
kernel_args() { append+=("$@"); }
# shellcheck source=/dev/null
source "$shape_file"

# Without hmat lines the machine has no HMAT at all (QEMU takes a node's initiator only with hmat=on).
has_hmat=off
[ ${#hmat_args[@]} -gt 0 ] && has_hmat=on
numa_args=()
for spec in "${nodes[@]}"; do
  if [ "$has_hmat" = on ]; then
    numa_args+=(-numa "${spec%|*},initiator=${spec#*|}")
  else
    numa_args+=(-numa "${spec%|*}")
  fi
done
args=("${objects[@]}" "${numa_args[@]}" "${dist_args[@]}" "${hmat_args[@]}")
mkdir -p "$(dirname "$transcript")"

# A guest reaches /init ("@@guest") in 3-5 s alone, under a minute on a busy 2-core host. One that has not within
# boot_wait_s hung before user space — seen once under TCG: SeaBIOS, then nothing until the 420-s timeout, and the
# same shape booted again at once in 32 s —: it is stopped and booted once more, and says so.
boot_wait_s="${COSCHED_GUEST_BOOT_WAIT:-90}"
reached_init() { grep -q '@@guest' "$transcript"; }
hung=0
boot() {
  rc=0 hung=0
  timeout --kill-after=10 "$timeout_s" "$qemu" -machine "q35,hmat=$has_hmat" -accel tcg -cpu "$model" \
    -smp "$cpu_count,sockets=$socket_count,cores=$((cpu_count / socket_count)),threads=1" -m "${total_mib}M" \
    "${args[@]}" -kernel "$kernel" -initrd "$initramfs" -append "${append[*]}" \
    -nographic -no-reboot -nodefaults -serial stdio </dev/null >"$transcript" 2>&1 &
  local pid=$! waited=0
  while kill -0 "$pid" 2>/dev/null && ! reached_init && [ "$waited" -lt "$boot_wait_s" ]; do
    sleep 1
    waited=$((waited + 1))
  done
  if ! reached_init && kill -0 "$pid" 2>/dev/null; then
    hung=1
    kill "$pid" 2>/dev/null || true  # timeout passes the signal on to QEMU
  fi
  wait "$pid" || rc=$?
}
boot
if [ "$hung" -eq 1 ]; then
  echo "guest boot: $(basename "$shape_file" .sh) did not reach /init within $boot_wait_s s (hung before user" \
       "space): booted again" >&2
  boot
fi
grep -q '^@@done' "$transcript" && exit 0
reason="qemu exit $rc"
[ "$rc" -eq 124 ] && reason="timed out after $timeout_s s"
[ "$hung" -eq 1 ] && reason="twice it did not reach /init within $boot_wait_s s"
echo "guest boot: $(basename "$shape_file" .sh) did not finish its checks ($reason) — console in $transcript" >&2
exit 1
