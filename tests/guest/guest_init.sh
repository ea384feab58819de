#!/bin/sh
# /init of the test suite's QEMU guests (tests/guest/, docs/guest.md): mounts what the programs need, runs every
# check of one machine shape in this one boot, each as a section the host test reads
#   @@begin NAME            then the command's output (stdout and stderr)
#   @@end NAME rc=CODE t=UPTIME_S
# and powers the guest off. Kernel command line: cosched.threads=N (STREAM threads: the guest's CPUs),
# cosched.hbw=NODES (MEMKIND_HBW_NODES for the memkind run: the topology's fast nodes, because memkind's own
# detection disagrees with them on most shapes, docs/guest.md), cosched.mib=N (per STREAM array).
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
export PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/tmp TMPDIR=/tmp
threads=1 hbw="" mib=16
for word in $(cat /proc/cmdline); do
  case "$word" in
    cosched.threads=*) threads="${word#*=}" ;;
    cosched.hbw=*) hbw="${word#*=}" ;;
    cosched.mib=*) mib="${word#*=}" ;;
  esac
done
cd /tmp

section() {  # NAME COMMAND...: the command's output between markers, with its exit code
  name="$1"
  shift
  echo "@@begin $name"
  "$@" 2>&1
  rc=$?
  echo "@@end $name rc=$rc t=$(cut -d' ' -f1 /proc/uptime)"
}
# Where each page of a stream_bench run's arrays lives, read by page_nodes with move_pages(2) while the run is
# stopped after its first touch (all three arrays resident), then the run's own JSON. page_nodes needs the run to
# last a second after its first touch (exit 3 when it ended before): 40 repetitions did on the hosts seen before,
# not on one where TCG ran triad at 3.6 GB/s (0.5 s); a run that ended too soon is made again 10 x longer, only its
# last attempt's output kept.
stream_pages() {  # BACKEND FRACTION [VARIABLE=VALUE...]: the run's environment
  backend="$1" fraction="$2"
  shift 2
  for reps in 40 400; do
    out=$(env "$@" page_nodes --min-rss-mib $((3 * mib)) -- stream_bench --kernel triad --threads "$threads" \
      --size-mib "$mib" --reps "$reps" --fast-fraction "$fraction" --tier-backend "$backend" --json 2>&1)
    rc=$?
    [ "$rc" -eq 3 ] || break
    echo "stream_pages: $reps repetitions ended before the pages settled; again with more"
  done
  printf '%s\n' "$out"
  return "$rc"
}
memkind_pages() {
  if [ -n "$hbw" ]; then stream_pages memkind "$1" MEMKIND_HBW_NODES="$hbw"; else stream_pages memkind "$1"; fi
}
# A command task placed as the launcher places it (cosched profile --command: exec::build_task_launch and
# ChildProcess, as cosched launch), reporting its policy and the nodes of its pages (memory_probe, move_pages).
placed_command() {  # PLACEMENT CHUNKS [FOOTPRINT_MIB: what the task declares; it touches 24 MiB]
  # The output goes to placed.json (the profile writes its own sidecar to probe.json), appended: at 0 chunks the
  # memory-demand probe runs two copies at once.
  rm -f /tmp/placed.json
  cosched profile --command "sh -c 'memory_probe --mib 24 >> /tmp/placed.json'" --name probe --cores 1 \
    --chunks "$2" --command-footprint-mib "${3:-24}" --placement "$1" --platform /guest/platform.toml --reps 1 \
    --warmup 0 --quiet --force -o /tmp/probe.csv && cat /tmp/placed.json
}

echo "@@guest $(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo) uptime=$(cut -d' ' -f1 /proc/uptime)"
section cpu_flags grep -m1 '^flags' /proc/cpuinfo
section kernel_tiering sh -c 'echo numa_balancing=$(cat /proc/sys/kernel/numa_balancing);
  echo demotion_enabled=$(cat /sys/kernel/mm/numa/demotion_enabled 2>/dev/null || echo absent)'
section topo cosched topo --json
section stream_version stream_bench --kernel triad --threads 1 --size-mib 1 --reps 2 --json
section stream_numa stream_pages numa 0.5
section stream_memkind memkind_pages 0.5
section place_bind placed_command bind 20
section place_preferred placed_command preferred 20
section place_none placed_command none 20
section place_slow placed_command bind 0
section place_weighted placed_command weighted-interleave 1 65536  # a fraction below 1 of a 64 GiB footprint
section calibrate cosched calibrate --quick --kernels triad --size-mib 8 --rounds 1 --reps 2 --cores 1,2 \
  --output /tmp/node.toml
section run cosched run /guest/batch.json --platform /guest/platform.toml --node /tmp/node.toml --reps 1 \
  --output /tmp/run
section too_small cosched run /guest/batch.json --platform /guest/too-small.toml --node /tmp/node.toml \
  --reps 1 --output /tmp/run-too-small
echo "@@done uptime=$(cut -d' ' -f1 /proc/uptime)"
poweroff -f
