#!/usr/bin/env bash
# A real Slurm cluster of N nodes on this one machine, for cosched's tests and CI (docs/slurm-local.md).
#
#   scripts/local-slurm.sh start  [--nodes N] [--dir DIR] [--cpus C] [--timeout S] [--replace]
#   scripts/local-slurm.sh stop   [--dir DIR] [--keep-logs]
#   scripts/local-slurm.sh status [--dir DIR]
#
# start: a private munged, one slurmctld and N `slurmd -N nodeK` (node1..nodeN), each with its own TCP port, spool,
#   pid and log file, configured by a slurm.conf generated in DIR (default: a fresh mktemp folder); waits until
#   `sinfo` shows every node idle (--timeout, default 30 s) and prints on stdout the environment to use:
#       eval "$(scripts/local-slurm.sh start --nodes 3)"     # exports SLURM_CONF and COSCHED_SLURM_DIR
#   DIR must be new, empty, or a folder this script made before (--replace stops and wipes such a folder first).
# stop: cancels the cluster's jobs, stops its daemons by their recorded PIDs (then SIGKILLs whatever still carries
#   the cluster's mark: slurmstepd and the job's processes), and removes DIR (--keep-logs keeps DIR/log).
#   Idempotent: stopping a stopped or absent cluster succeeds.
# status: the daemons and `sinfo -N`; exit 0 when every daemon runs, 1 otherwise, 3 when DIR holds no cluster.
# Without --dir, stop and status use $COSCHED_SLURM_DIR (what start exported).
#
# Exit codes: 0 done, 1 failed (logs kept in DIR/log), 2 usage, 77 cannot run here (not root, or the packages
# slurmd slurmctld slurm-client munge are missing: scripts/setup.sh installs them) — ctest's SKIP_RETURN_CODE.
#
# Every node advertises --cpus CPUs (default: the machine's, nproc). The nodes share the same cores: node1 and
# node2 may both run a task on CPU 0; no cgroups (proctrack/linuxproc). Daemons run as root.
set -euo pipefail

readonly kSkip=77
readonly kMark=COSCHED_LOCAL_SLURM   # environment variable naming DIR in every daemon this script starts
readonly kOwnerFile=.cosched-local-slurm

say() { echo "local-slurm: $*" >&2; }
die() { say "error: $*"; exit 1; }
usage() { say "$*"; sed -n '4,6p' "${BASH_SOURCE[0]}" >&2; exit 2; }
skip() { say "SKIPPED: $*"; exit "$kSkip"; }

# --- processes ------------------------------------------------------------------------------------------------------

# A process is alive when /proc has it and it is not a zombie (a daemon's parent may reap it late).
alive() {
  local state
  state=$(awk '/^State:/ {print $2; exit}' "/proc/$1/status" 2>/dev/null) || return 1
  [[ -n $state && $state != Z && $state != X ]]
}

# True when process $1 was started by this cluster: its initial environment carries the mark (guards PID reuse).
marked() { grep -qsxzF "$kMark=$2" "/proc/$1/environ"; }

# PIDs of every process started by the cluster in DIR $1: the marked ones (the daemons, slurmctld's slurmscriptd,
# every slurmstepd — slurmd passes its environment on) and all their descendants (the jobs' processes).
cluster_processes() {
  local dir=$1 roots
  roots=$(grep -lsxzF "$kMark=$dir" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 | grep -vx "$$" | tr '\n' ' ') ||
    true
  [[ -n $roots ]] || return 0
  ps -e -o pid=,ppid= | awk -v roots="$roots" '
    { children[$2] = children[$2] " " $1 }
    END {
      count = split(roots, stack, " ")
      for (i = 1; i <= count; i++) seen[stack[i]] = 1
      while (count > 0) {
        pid = stack[count--]; print pid
        n = split(children[pid], kids, " ")
        for (k = 1; k <= n; k++) if (!(kids[k] in seen)) { seen[kids[k]] = 1; stack[++count] = kids[k] }
      }
    }'
}

# wait_gone SECONDS PID...: true once none of them is alive.
wait_gone() {
  local seconds=$1 pid tick
  shift
  for ((tick = 0; tick < seconds * 20; tick++)); do
    local any=0
    for pid in "$@"; do alive "$pid" && { any=1; break; }; done
    ((any)) || return 0
    sleep 0.05
  done
  return 1
}

# --- ports ----------------------------------------------------------------------------------------------------------

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A base port B such that B..B+count-1 are all free (random, so that several clusters can coexist).
free_port_block() {
  local count=$1 attempt base offset
  for ((attempt = 0; attempt < 50; attempt++)); do
    base=$((20000 + RANDOM % 30000))
    for ((offset = 0; offset < count; offset++)); do port_in_use $((base + offset)) && continue 2; done
    echo "$base"
    return 0
  done
  die "no block of $count free TCP ports found"
}

# --- start ----------------------------------------------------------------------------------------------------------

check_prerequisites() {
  [[ $(id -u) -eq 0 ]] || skip "not root: slurmd must run as root to launch jobs"
  local program missing=()
  for program in munged mungekey slurmctld slurmd slurmstepd sinfo srun salloc scontrol squeue scancel; do
    command -v "$program" >/dev/null || missing+=("$program")
  done
  ((${#missing[@]} == 0)) ||
    skip "missing ${missing[*]} (install slurmd slurmctld slurm-client munge: scripts/setup.sh)"
}

# Makes DIR ready for a new cluster: new, empty, or ours (with --replace: stopped and wiped).
prepare_dir() {
  local dir=$1 replace=$2
  if [[ -e $dir && ! -d $dir ]]; then die "$dir is not a folder"; fi
  if [[ -d $dir && -n $(ls -A "$dir") ]]; then
    [[ -f $dir/$kOwnerFile ]] || die "$dir holds files this script did not make: give a new or empty folder"
    ((replace)) || die "$dir holds a cluster already: stop it first, or pass --replace"
    stop_cluster "$dir" 0
  fi
  mkdir -p "$dir"
  touch "$dir/$kOwnerFile"
  # munged wants its socket's folder searchable by everyone, and its key private.
  chmod 755 "$dir"
  mkdir -p "$dir/run" "$dir/log" "$dir/state" "$dir/munge"
  chmod 700 "$dir/munge"
  # A Unix socket's path has at most 107 bytes, and DIR may be deep (a build folder): munged's socket and the
  # slurmd spools (slurmstepd listens on sockets there) live in a short folder of their own, named in
  # DIR/sockets and removed by stop.
  local sockets
  sockets=$(mktemp -d /tmp/cosched-slurm-sockets.XXXXXX)
  chmod 755 "$sockets"
  echo "$sockets" >"$dir/sockets"
}

write_slurm_conf() {
  local dir=$1 nodes=$2 cpus=$3 port=$4 node sockets
  sockets=$(cat "$dir/sockets")
  {
    cat <<EOF
# Generated by cosched scripts/local-slurm.sh: $nodes nodes on one machine, all in $dir.
ClusterName=cosched-local
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sockets/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$sockets/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups here: processes are tracked by parentage; tasks are bound with sched_setaffinity (task/affinity
# needs every advertised CPU to exist, hence --cpus <= nproc).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
# The nodes take the CPUs written here, not the hardware slurmd detects (all of them see the same machine).
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=2
MinJobAge=300
EOF
    for ((node = 1; node <= nodes; node++)); do
      echo "NodeName=node$node NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + node))" \
        "CPUs=$cpus Sockets=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=1024 State=UNKNOWN"
    done
    echo "PartitionName=local Nodes=node[1-$nodes] Default=YES MaxTime=INFINITE State=UP"
  } >"$dir/slurm.conf"
}

# start_daemon DIR NAME PIDFILE COMMAND...: starts a daemon (it forks itself away) with the cluster's mark and
# records "NAME PID" in DIR/daemons once its pid file appears.
start_daemon() {
  local dir=$1 name=$2 pid_file=$3 tick
  shift 3
  env "$kMark=$dir" "$@" </dev/null >>"$dir/log/$name.stdout" 2>&1 || return 1
  for ((tick = 0; tick < 200; tick++)); do
    if [[ -s $pid_file ]]; then
      echo "$name $(cat "$pid_file")" >>"$dir/daemons"
      return 0
    fi
    sleep 0.05
  done
  return 1
}

# A start that went wrong: show the logs' tails, stop what started, keep the logs.
abandon() {
  local dir=$1
  shift
  say "error: $*"
  tail -n 15 "$dir"/log/*.log "$dir"/log/*.stdout >&2 2>/dev/null || true
  stop_cluster "$dir" 1
  say "logs kept in $dir/log"
  exit 1
}

start_cluster() {
  local nodes=3 dir="" cpus timeout=30 replace=0
  cpus=$(nproc)
  while (($#)); do
    case $1 in
      --nodes) nodes=${2:-}; shift 2 ;;
      --dir) dir=${2:-}; shift 2 ;;
      --cpus) cpus=${2:-}; shift 2 ;;
      --timeout) timeout=${2:-}; shift 2 ;;
      --replace) replace=1; shift ;;
      *) usage "start: unknown argument $1" ;;
    esac
  done
  [[ $nodes =~ ^[1-9][0-9]?$ ]] || usage "--nodes must be 1..99, not '$nodes'"
  [[ $timeout =~ ^[1-9][0-9]*$ ]] || usage "--timeout must be a positive number of seconds, not '$timeout'"
  [[ $cpus =~ ^[1-9][0-9]*$ ]] || usage "--cpus must be a positive integer, not '$cpus'"
  ((cpus <= $(nproc))) || usage "--cpus $cpus: this machine has $(nproc) (task/affinity binds to real CPUs)"
  check_prerequisites
  if [[ -z $dir ]]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/cosched-slurm.XXXXXX")
  fi
  dir=$(realpath -m "$dir")
  prepare_dir "$dir" "$replace"

  local port node
  port=$(free_port_block $((nodes + 1)))
  write_slurm_conf "$dir" "$nodes" "$cpus" "$port"
  printf 'export SLURM_CONF=%q\nexport COSCHED_SLURM_DIR=%q\n' "$dir/slurm.conf" "$dir" >"$dir/env.sh"
  export SLURM_CONF=$dir/slurm.conf

  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 || abandon "$dir" "mungekey failed"
  chmod 400 "$dir/munge/munge.key"
  start_daemon "$dir" munged "$dir/run/munged.pid" munged --socket="$(cat "$dir/sockets")/munge.socket" \
    --key-file="$dir/munge/munge.key" --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" || abandon "$dir" "munged did not start"
  start_daemon "$dir" slurmctld "$dir/run/slurmctld.pid" slurmctld -f "$SLURM_CONF" ||
    abandon "$dir" "slurmctld did not start"
  for ((node = 1; node <= nodes; node++)); do
    mkdir -p "$(cat "$dir/sockets")/spool/node$node"
    start_daemon "$dir" "slurmd-node$node" "$dir/run/slurmd-node$node.pid" slurmd -f "$SLURM_CONF" -N "node$node" ||
      abandon "$dir" "slurmd node$node did not start"
  done

  local tick idle=0
  for ((tick = 0; tick < timeout * 10; tick++)); do
    idle=$(timeout 5 sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l) || idle=0
    ((idle == nodes)) && break
    sleep 0.1
  done
  if ((idle != nodes)); then
    timeout 5 sinfo -N >&2 || true
    abandon "$dir" "$idle of $nodes nodes idle after ${timeout}s"
  fi
  say "$nodes nodes idle (node1..node$nodes, $cpus CPUs each, shared), controller port $port, folder $dir"
  cat "$dir/env.sh"
}

# --- stop -----------------------------------------------------------------------------------------------------------

# stop_cluster DIR KEEP_LOGS: cancel jobs, stop daemons by PID, SIGKILL what is left of the cluster, remove DIR.
stop_cluster() {
  local dir=$1 keep_logs=$2 name pid
  if [[ -f $dir/daemons ]]; then
    export SLURM_CONF=$dir/slurm.conf
    local controller
    controller=$(awk '$1 == "slurmctld" {print $2}' "$dir/daemons")
    if [[ -n $controller ]] && alive "$controller" && marked "$controller" "$dir"; then
      # Cancelled jobs let each slurmstepd end its tasks itself.
      local jobs tick
      jobs=$(timeout 5 squeue -h -o %A 2>/dev/null) || jobs=""
      if [[ -n $jobs ]]; then
        # shellcheck disable=SC2086
        timeout 5 scancel $jobs 2>/dev/null || true
        for ((tick = 0; tick < 100; tick++)); do
          [[ -z $(timeout 5 squeue -h -o %A 2>/dev/null) ]] && break
          sleep 0.1
        done
      fi
    fi
    local stopping=()
    for name in slurmd slurmctld munged; do  # nodes first, then the controller, then authentication
      while read -r daemon pid; do
        [[ $daemon == "$name"* ]] || continue
        if alive "$pid" && marked "$pid" "$dir"; then
          kill -TERM "$pid" 2>/dev/null && stopping+=("$pid")
        fi
      done <"$dir/daemons"
    done
    ((${#stopping[@]} == 0)) || wait_gone 5 "${stopping[@]}" || true
  fi
  local left=()
  for pid in $(cluster_processes "$dir"); do alive "$pid" && left+=("$pid"); done
  if ((${#left[@]})); then
    say "SIGKILL to what is left of the cluster: ${left[*]}"
    kill -KILL "${left[@]}" 2>/dev/null || true
    wait_gone 5 "${left[@]}" || true
  fi
  left=()
  for pid in $(cluster_processes "$dir"); do alive "$pid" && left+=("$pid"); done
  ((${#left[@]} == 0)) || die "still running after SIGKILL: ${left[*]}"
  if [[ -f $dir/sockets ]]; then
    local sockets
    sockets=$(cat "$dir/sockets")
    [[ $sockets != /tmp/cosched-slurm-sockets.* ]] || rm -rf "$sockets"
  fi
  if ((keep_logs)); then
    find "$dir" -mindepth 1 -maxdepth 1 ! -name log ! -name "$kOwnerFile" -exec rm -rf {} +
  else
    rm -rf "$dir"
  fi
}

# Sets cluster_dir and keep_logs from stop's and status's arguments.
parse_cluster_arguments() {
  cluster_dir=${COSCHED_SLURM_DIR:-}
  keep_logs=0
  while (($#)); do
    case $1 in
      --dir) cluster_dir=${2:-}; shift 2 ;;
      --keep-logs) keep_logs=1; shift ;;
      *) usage "unknown argument $1" ;;
    esac
  done
  [[ -n $cluster_dir ]] || usage "which cluster? give --dir DIR (or export COSCHED_SLURM_DIR)"
  cluster_dir=$(realpath -m "$cluster_dir")
}

stop_command() {
  parse_cluster_arguments "$@"
  if [[ ! -d $cluster_dir ]]; then
    say "no cluster in $cluster_dir: nothing to stop"
    return 0
  fi
  [[ -f $cluster_dir/$kOwnerFile ]] || die "$cluster_dir was not made by this script: not touching it"
  stop_cluster "$cluster_dir" "$keep_logs"
  say "stopped the cluster of $cluster_dir"
}

status_command() {
  local daemon pid all=0
  parse_cluster_arguments "$@"
  [[ -f $cluster_dir/daemons ]] || { say "no cluster in $cluster_dir"; exit 3; }
  while read -r daemon pid; do
    if alive "$pid" && marked "$pid" "$cluster_dir"; then
      echo "$daemon $pid running"
    else
      echo "$daemon $pid STOPPED"
      all=1
    fi
  done <"$cluster_dir/daemons"
  SLURM_CONF=$cluster_dir/slurm.conf timeout 5 sinfo -N || all=1
  return "$all"
}

case ${1:-} in
  start) shift; start_cluster "$@" ;;
  stop) shift; stop_command "$@" ;;
  status) shift; status_command "$@" ;;
  *) usage "usage:" ;;
esac
