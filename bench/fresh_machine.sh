#!/usr/bin/env bash
# Times the README's first set-up command on a genuinely fresh Debian 12 on this machine, apt included (issue 24:
# "fresh machine to the quick demo's result"). Measures, never asserts; figures in README.md.
#
# Why a chroot and not a container image: the development VM has no container runtime and no route to Docker Hub.
# Instead: a minimal Debian 12
# (mmdebstrap --variant=minbase bookworm: Essential + apt, 96 packages, about what the debian:12 image holds; no git,
# no sudo, no compiler, empty apt lists), entered with unshare (own mount + PID namespace; host network, all cores, no
# memory limit) and chroot.
#
# Untimed preparation: the base tarball (once, cached in /var/tmp/cosched-fresh or $FRESH_WORK), a fresh root file
# system extracted from it, the host's resolv.conf, /usr/sbin/policy-rc.d "exit 101" (as in the debian:12 image:
# package scripts start no daemons such as munged/slurmd), and a fresh clone of the repository at /root/cosched
# (cloned with the host's git: the README assumes a clone exists; setup.sh then installs git itself, inside the
# timer).
# Timed: inside the chroot, from the clone's root, as root with a clean environment: the command (default
# `scripts/run.sh --quick`, the issue's "fresh machine to the quick demo's result"). Phases by polling from the
# host: apt = start .. the build folder appears (setup.sh's apt-get update + install), build = .. the process
# `/root/cosched/build/bin/cosched demo` appears (cmake configure + build), demo = .. the command ends. CPU time
# per phase (user + sys of everything the command ran) from a cgroup-v1 cpuacct group where the machine has one
# (accounting only, no limit; "n/a" otherwise).
#
# Usage (root, network): bench/fresh_machine.sh [--ref REF] [--repo PATH] [--output DIR] [--keep] [-- COMMAND...]
#   --ref REF    commit, branch or tag to check out (default: the repository's HEAD)
#   --repo PATH  repository to clone (default: the one this script is in)
#   --output DIR log, events and summary (default: ./fresh-machine-<UTC stamp>; the summary is also printed)
#   --keep       keep the root file system afterwards (default: deleted after the timing; 2-3 GB)
#   COMMAND      default: scripts/run.sh --quick   (e.g. `-- scripts/run.sh` for the full demo)
set -euo pipefail

repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
ref=HEAD
keep=0
work=${FRESH_WORK:-/var/tmp/cosched-fresh}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
logdir=$PWD/fresh-machine-$stamp
command=(scripts/run.sh --quick)
while [ $# -gt 0 ]; do
  case "$1" in
    --ref) ref=$2; shift 2 ;;
    --repo) repo=$2; shift 2 ;;
    --output) logdir=$(realpath -m "$2"); shift 2 ;;
    --keep) keep=1; shift ;;
    --) shift; command=("$@"); break ;;
    *) echo "fresh_machine: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
done
[ ${#command[@]} -gt 0 ] || { echo "fresh_machine: empty command after --" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "fresh_machine: needs root (mmdebstrap, unshare, chroot)" >&2; exit 2; }
if ! command -v mmdebstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap
fi

mkdir -p "$work" "$logdir"
log=$logdir/run-$stamp.log
events=$logdir/events-$stamp.txt
summary=$logdir/summary-$stamp.txt
base=$work/debian12-minbase.tar
root=$work/root
say() { echo "fresh_machine: $*"; }

# ---- untimed: the fresh system ----
if [ ! -s "$base" ]; then
  say "building the base Debian 12 (minbase) tarball once: $base"
  mmdebstrap --quiet --variant=minbase --mode=root --format=tar bookworm "$work/partial-base.tar" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  mv "$work/partial-base.tar" "$base"
fi
if [ -e "$root" ]; then
  # Mounts live only in the timed run's private mount namespace, gone with it; refuse if any is visible here.
  if grep -q " $root/" /proc/self/mountinfo; then say "refusing to delete $root: something is mounted under it"; exit 1; fi
  rm -rf "$root"
fi
mkdir -p "$root"
tar -C "$root" -xf "$base"
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb   # as the debian:12 image: no lists
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
commit=$(git -C "$repo" rev-parse --verify "$ref^{commit}")
git clone --quiet --no-hardlinks --no-checkout "$repo" "$root/root/cosched"
git -C "$root/root/cosched" checkout --quiet "$commit"
commit=$(git -C "$root/root/cosched" rev-parse --short HEAD)
packages_before=$(chroot "$root" dpkg-query -W -f='${db:Status-Abbrev}\n' | grep -c '^ii')
cat >"$work/enter.sh" <<'EOF'
#!/bin/bash
# Runs inside `unshare --mount --pid --fork`: the chroot's /proc, /sys, /dev, then the command from the clone's root.
set -eu
R=$1; shift
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys"
mount --rbind /dev "$R/dev"
exec chroot "$R" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  /bin/bash -c 'cd /root/cosched && "$@"' fresh "$@"
EOF
chmod 755 "$work/enter.sh"

say "fresh Debian 12 minbase at $root ($packages_before packages), clone of $repo $ref at $commit"
say "timing, inside it, from /root/cosched: ${command[*]}"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- timed ----
cg=/sys/fs/cgroup/cpuacct/cosched-fresh-$stamp   # CPU accounting only (no cpu/memory controller, no limit)
if [ -d /sys/fs/cgroup/cpuacct ] && mkdir "$cg" 2>/dev/null; then
  cpu_ns() { cat "$cg/cpuacct.usage"; }
else
  cg=""
  cpu_ns() { echo 0; }   # no cgroup-v1 cpuacct here: phases without CPU time (the total comes from /usr/bin/time)
fi
now_us() { local t=${EPOCHREALTIME/./}; echo $((10#$t)); }
start_us=$(now_us)
elapsed() { local d=$(( $(now_us) - start_us )); printf '%d.%01d' $((d / 1000000)) $(( (d % 1000000) / 100000 )); }
: >"$events"
(
  build_seen=0
  while :; do
    if [ $build_seen -eq 0 ] && [ -e "$root/root/cosched/build" ]; then
      echo "build $(now_us) $(cut -d' ' -f1 /proc/loadavg) $(cpu_ns)" >>"$events"; build_seen=1
    fi
    if [ $build_seen -eq 1 ] && pgrep -f '^/root/cosched/build/bin/cosched demo' >/dev/null; then
      echo "demo $(now_us) $(cut -d' ' -f1 /proc/loadavg) $(cpu_ns)" >>"$events"; break
    fi
    sleep 0.5
  done
) &
poller=$!
set +e
/usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" \
  bash -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs"; shift; exec "$@"' cg "$cg" \
  unshare --mount --pid --fork --propagation private "$work/enter.sh" "$root" "${command[@]}" 2>&1 |
  while IFS= read -r line; do printf '%7s  %s\n' "$(elapsed)" "$line"; done | tee "$log"
rc=${PIPESTATUS[0]}
set -e
end_us=$(now_us)
end_cpu=$(cpu_ns)
kill "$poller" 2>/dev/null || true; wait "$poller" 2>/dev/null || true
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
[ -z "$cg" ] || rmdir "$cg" 2>/dev/null || say "cgroup $cg still has processes; not removed"

# ---- report ----
sec() { local d=$1; printf '%d.%01d' $((d / 1000000)) $(( (d % 1000000) / 100000 )); }
build_us=$(awk '$1=="build"{print $2}' "$events"); demo_us=$(awk '$1=="demo"{print $2}' "$events")
build_cpu=$(awk '$1=="build"{print $4}' "$events"); demo_cpu=$(awk '$1=="demo"{print $4}' "$events")
cpu() { if [ -n "$cg" ]; then awk -v n="$1" 'BEGIN{printf "%.1f", n/1e9}'; else echo "n/a"; fi; }
read -r wall user sys maxrss_kib < <(tail -n 1 "$work/time.txt") || true
packages_after=$(chroot "$root" dpkg-query -W -f='${db:Status-Abbrev}\n' | grep -c '^ii')
downloaded=$(du -sh "$root/var/cache/apt/archives" | cut -f1)
{
  echo "fresh_machine $stamp: ${command[*]} in a fresh Debian 12 minbase chroot, clone of $repo at $commit"
  echo "exit code: $rc"
  echo "phase                        wall      CPU (user+sys)"
  if [ -n "$build_us" ]; then echo "apt    (setup.sh)            $(sec $((build_us - start_us))) s   $(cpu "$build_cpu") s"; fi
  if [ -n "$build_us" ] && [ -n "$demo_us" ]; then
    echo "build  (configure + build)   $(sec $((demo_us - build_us))) s   $(cpu $((demo_cpu - build_cpu))) s   (load average at its start: $(awk '$1=="build"{print $3}' "$events"))"
    echo "demo                         $(sec $((end_us - demo_us))) s   $(cpu $((end_cpu - demo_cpu))) s   (load average at its start: $(awk '$1=="demo"{print $3}' "$events"))"
  else
    echo "phases: not all seen (build folder seen: ${build_us:+yes}, demo process seen: ${demo_us:+yes})"
  fi
  echo "total                        $(sec $((end_us - start_us))) s   $(cpu "$end_cpu") s   = $(awk -v s=$((end_us - start_us)) 'BEGIN{printf "%.2f", s/60e6}') min wall"
  echo "/usr/bin/time: user + sys ${user:-?} + ${sys:-?} s, largest process $(( ${maxrss_kib:-0} / 1024 )) MiB"
  echo "packages: $packages_before before, $packages_after after; apt archives downloaded: $downloaded"
  echo "load average before: $load_before; after: $load_after; cores: $(nproc)"
  echo "last line: $(tail -n 1 "$log")"
  echo "log: $log"
} | tee "$summary"

if [ $keep -eq 0 ]; then
  say "deleting $root (after the timing; low priority; takes a minute or more on this VM)"
  nice -n 19 ionice -c 3 rm -rf "$root"
else
  say "kept $root (the next run deletes it before its timer starts)"
fi
exit "$rc"
