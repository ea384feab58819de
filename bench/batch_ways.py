"""The batches and the ways to run them without cosched, for bench/batch_vs_naive.py.

A batch is read as `cosched run` reads it (docs/formats.md, "Workload"): JSON tasks (a `command` argv with
placeholders and an optional `env`, or a STREAM `kernel` + `footprint_bytes` + `passes`) or a TOML of kernel groups
expanded by the task-id rule. A way without cosched is a shell script that runs the batch's commands as a user
would, each with the placeholders filled as that way gives it cores:

  one-by-one     each task in turn with all P cores ({threads} = P, {cpuset} / {cores} all of them);
  all-at-once    every task started at once with one core each ({threads} = 1); the OS shares the cores. Task k's
                 {cores} / {cpuset} is core k mod P;
  xargs          `xargs -P P` in the file's order, one core each; a task's {cores} / {cpuset} is its xargs slot
                 (`--process-slot-var`), which is a core no other running task has;
  longest-first  the same with the tasks in descending known duration (a previous run's journal).

A STREAM task runs as the argv the launcher gives it (runtime/src/exec/task_command.cpp, stream_argv) without the
placement arguments: `stream_bench --kernel K --threads N --size-mib <footprint / arrays> --reps <passes> --warmup 0
--json`, in the memory a process gets without asking for any: on a node whose tier cosched emulates, the emulated
slow tier (EMULATED_SLOW_MEMORY: what a program gets on a flat-mode KNL, DDR); elsewhere the OS's default memory. stream_bench pins its
threads to the first N allowed cores, so where the OS would share the cores the way gives it `--cores` (its core k
mod P, or its xargs slot): otherwise every one-thread STREAM task would run on core 0. A command whose program is
stream_bench (the demo's mixed batch as commands) gets the same `--cores` unless it has its own.

Python 3 standard library only.
"""

import json
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

WAYS_NAIVE = ("one-by-one", "all-at-once", "xargs", "longest-first")
# The arrays a kernel's footprint is shared among (stream_bench/src/kernel_table.cpp: reads + writes, or the
# sized entries' count): --size-mib is one array's size.
KERNEL_ARRAYS = {"write": 1, "ddot": 2, "copy": 2, "scale": 2, "add": 3, "triad": 3, "gemm": 3, "stencil": 2,
                 "spmv": 5, "gups": 1}
MIB = 1024 * 1024


class BatchError(RuntimeError):
    """A batch this benchmark cannot read or run."""


@dataclass
class Task:
    id: str
    command: list = None        # argv with placeholders (a command task)
    env: dict = field(default_factory=dict)
    kernel: str = None          # a STREAM task
    footprint_bytes: int = 0
    passes: int = 1
    work: float = None          # a command's `work` value, for its {work} placeholder (docs/formats.md)


@dataclass
class Batch:
    name: str
    path: Path                  # the file `cosched run` is given
    tasks: list
    cwd: Path = None            # where every way runs (relative paths of its commands start here)


def shortest(value: float) -> str:
    """A number as fmt's "{}" writes it (the shortest text that reads back; 64 not 64.0)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def stream_task_id(kernel: str, footprint_bytes: int, k: int) -> str:
    """config::stream_task_id: <kernel>-<footprint in MiB>MiB-<k>."""
    return f"{kernel}-{shortest(footprint_bytes / MIB)}MiB-{k}"


def load_batch(path: Path) -> Batch:
    """The batch's tasks as cosched reads them; the name its journal gives it (the file's `name`, else its stem)."""
    text = path.read_text()
    if path.suffix == ".toml":
        document = tomllib.loads(text)
        tasks, counts = [], {}
        for group in document.get("tasks", []):
            if "footprint_mib" not in group:
                raise BatchError(f"{path}: a task group without footprint_mib (a percentage of the fast tier needs "
                                 f"the platform: give footprint_mib)")
            footprint = round(group["footprint_mib"] * MIB)
            for _ in range(group.get("count", 1)):
                k = counts.get((group["kernel"], footprint), 0)
                counts[(group["kernel"], footprint)] = k + 1
                tasks.append(Task(id=stream_task_id(group["kernel"], footprint, k), kernel=group["kernel"],
                                  footprint_bytes=footprint, passes=group.get("passes", 1)))
    else:
        document = json.loads(text)
        tasks = []
        for entry in document.get("tasks", []):
            if "command" in entry:
                tasks.append(Task(id=entry["id"], command=list(entry["command"]), env=dict(entry.get("env", {})),
                                  work=entry["work"]["value"] if "work" in entry else None))
            else:
                tasks.append(Task(id=entry["id"], kernel=entry["kernel"], footprint_bytes=entry["footprint_bytes"],
                                  passes=entry.get("passes", 1)))
    if not tasks:
        raise BatchError(f"{path}: no tasks")
    for task in tasks:
        if task.kernel is not None and task.kernel not in KERNEL_ARRAYS:
            raise BatchError(f"{path}: task {task.id}: unknown kernel {task.kernel}")
    return Batch(name=document.get("name", path.stem), path=path, tasks=tasks)


@dataclass
class StreamBench:
    """The stream_bench a way runs STREAM tasks with, and the memory arguments it gives them: none (stream_bench's
    default, plain memory) or the node's own memory as a process gets it without asking (NODE_DEFAULT_MEMORY)."""
    path: Path
    memory: tuple = ()


# On an emulated tier (docs/emulation.md) a process that asks for nothing gets the slow tier, as a program on a KNL
# or Xeon Max node in flat mode gets DDR: stream_bench's emulated backend at no fast fraction, at the ratio of the
# platform cosched runs on (config::kDefaultEmulationRatio). Plain memory would run as fast as the fast tier.
EMULATED_SLOW_MEMORY = ("--tier-backend", "emulated", "--fast-fraction", "0", "--emulation-ratio", "5")


def stream_command(kernel: str, footprint_bytes: int, passes: int, threads: str, stream_bench: StreamBench) -> list:
    """The launcher's argv of a STREAM task (stream_argv), placement arguments left out (the way's memory instead)."""
    return [str(stream_bench.path), "--kernel", kernel, "--threads", threads, "--size-mib",
            shortest(footprint_bytes / KERNEL_ARRAYS[kernel] / MIB), "--reps", str(passes), "--warmup", "0",
            "--json", *stream_bench.memory]


def mixed_as_commands(toml_path: Path, fast_mib: int, stream_bench: StreamBench) -> dict:
    """The demo's mixed batch (configs/workloads/demo-mixed.toml, percentages of a fast tier of `fast_mib` MiB: the
    demo's 480) as a JSON batch of commands: each task the stream_bench argv the launcher gives it, {threads} for its
    cores, with its footprint (footprint_from_percent: whole MiB rounded down). `cosched run` runs these as commands,
    which it gives no fast memory: they run as the naive ways run them (stream_bench's memory arguments, if any)."""
    document = tomllib.loads(toml_path.read_text())
    tasks, counts = [], {}
    for group in document["tasks"]:
        footprint = int(group["footprint_percent_of_fast"] / 100 * fast_mib) * MIB
        for _ in range(group.get("count", 1)):
            k = counts.get((group["kernel"], footprint), 0)
            counts[(group["kernel"], footprint)] = k + 1
            tasks.append({"id": stream_task_id(group["kernel"], footprint, k), "footprint_bytes": footprint,
                          "command": stream_command(group["kernel"], footprint, group.get("passes", 1), "{threads}",
                                                    stream_bench)})
    return {"name": "demo-mixed-commands",
            "description": f"{toml_path.name}'s batch as commands (fast tier of {fast_mib} MiB, the demo's), written "
                           "by bench/batch_vs_naive.py",
            "tasks": tasks}


@dataclass
class Cores:
    """What a way gives one task: its thread count and the text of its {cpuset} and {cores}; `stream_cores` is the
    --cores a self-pinning stream_bench gets (None: the first `threads` allowed cores, its default)."""
    threads: int
    cpuset: str
    cores: str
    stream_cores: str = None


def pu_ranges(pus: list) -> str:
    """PUs as "0-3,8" (platform::to_range_text)."""
    pus, parts, start = sorted(pus), [], None
    for k, pu in enumerate(pus):
        if start is None:
            start = pu
        if k + 1 == len(pus) or pus[k + 1] != pu + 1:
            parts.append(str(start) if start == pu else f"{start}-{pu}")
            start = None
    return ",".join(parts)


def task_argv(task: Task, given: Cores, stream_bench: StreamBench) -> list:
    """The task's argv with the placeholders filled (exec::substitute_placeholders; no fast bytes without cosched)."""
    if task.kernel is not None:
        argv = stream_command(task.kernel, task.footprint_bytes, task.passes, str(given.threads), stream_bench)
        return argv + (["--cores", given.stream_cores] if given.stream_cores is not None else [])
    values = {"{threads}": str(given.threads), "{cpuset}": given.cpuset, "{cores}": given.cores, "{fast_bytes}": "0"}
    if task.work is not None:  # as config::command_at_work writes it: 40, 12.5
        values["{work}"] = str(int(task.work)) if float(task.work).is_integer() else repr(float(task.work))
    filled = []
    for arg in task.command:
        for key, value in values.items():
            arg = arg.replace(key, value)
        filled.append(arg)
    if Path(filled[0]).name == "stream_bench" and given.stream_cores is not None and "--cores" not in filled:
        filled += ["--cores", given.stream_cores]  # it pins itself: see the module's docstring
    return filled


# Stand-ins for what only the shell running an xargs command knows: its slot and the slot's PU.
SLOT_MARK, PU_MARK = "\x01slot\x01", "\x01pu\x01"
SHELL_VALUES = {SLOT_MARK: '"$COSCHED_SLOT"', PU_MARK: '"$COSCHED_PU"'}


def shell_word(arg: str) -> str:
    """One argument quoted for sh, the stand-ins replaced by the shell variables they stand for."""
    pieces, rest = [], arg
    while True:
        found = [(rest.find(mark), mark) for mark in SHELL_VALUES if mark in rest]
        if not found:
            pieces.append(shlex.quote(rest) if rest or not pieces else "")
            return "".join(pieces)
        at, mark = min(found)
        if rest[:at]:
            pieces.append(shlex.quote(rest[:at]))
        pieces.append(SHELL_VALUES[mark])
        rest = rest[at + len(mark):]


def shell_line(task: Task, argv: list, logs: Path) -> str:
    """One task as a shell command line: its env, its argv, its output into logs/<id>.out and .err."""
    words = [f"{name}={shell_word(value)}" for name, value in sorted(task.env.items())]
    words += [shell_word(arg) for arg in argv]
    return (" ".join(words) + f" >{shlex.quote(str(logs / (task.id + '.out')))}"
            f" 2>{shlex.quote(str(logs / (task.id + '.err')))}")


def one_by_one(batch: Batch, pus: list, logs: Path, stream_bench: StreamBench) -> str:
    given = Cores(len(pus), pu_ranges(pus), ",".join(map(str, range(len(pus)))))
    lines = [shell_line(task, task_argv(task, given, stream_bench), logs) for task in batch.tasks]
    return "set -e\n" + "\n".join(lines) + "\n"


def all_at_once(batch: Batch, pus: list, logs: Path, stream_bench: StreamBench) -> str:
    lines, waits = [], []
    for k, task in enumerate(batch.tasks):
        core = k % len(pus)
        argv = task_argv(task, Cores(1, str(pus[core]), str(core), str(core)), stream_bench)
        lines.append(f"{shell_line(task, argv, logs)} &\np{k}=$!")
        waits.append(f"wait $p{k} || failed=$((failed + 1))")
    return ("failed=0\n" + "\n".join(lines) + "\n" + "\n".join(waits) +
            '\n[ "$failed" -eq 0 ] || { echo "$failed task(s) failed" >&2; exit 1; }\n')


def xargs_way(batch: Batch, order: list, pus: list, logs: Path, stream_bench: StreamBench) -> tuple:
    """The script and its list of command lines (NUL-separated, in `order`) for `xargs -0 -P P -n 1 sh -c`: each
    command's slot is in COSCHED_SLOT (GNU xargs --process-slot-var), the slot's PU looked up where it is used."""
    given = Cores(1, PU_MARK, SLOT_MARK, SLOT_MARK)
    pu_of_slot = ("case $COSCHED_SLOT in " + " ".join(f"{k}) COSCHED_PU={pu};;" for k, pu in enumerate(pus)) +
                  " esac; ")
    by_id = {task.id: task for task in batch.tasks}
    items = []
    for task_id in order:
        task = by_id[task_id]
        line = shell_line(task, task_argv(task, given, stream_bench), logs)
        items.append((pu_of_slot if SHELL_VALUES[PU_MARK] in line else "") + line)
    script = f'xargs -0 -P {len(pus)} -n 1 --process-slot-var=COSCHED_SLOT sh -c < "$(dirname "$0")/commands"\n'
    return script, "".join(item + "\0" for item in items)


def longest_first_order(batch: Batch, durations: dict) -> list:
    """Task ids by descending known duration (ties and unknown ones in the file's order, unknown last)."""
    position = {task.id: k for k, task in enumerate(batch.tasks)}
    return sorted(position, key=lambda i: (-durations.get(i, -1.0), position[i]))


def write_naive_way(way: str, batch: Batch, folder: Path, pus: list, stream_bench: StreamBench,
                    durations: dict) -> Path:
    """Writes the way's script (and xargs' command list) into `folder`, task logs into folder/logs; returns the
    script. `durations` (task id -> seconds) orders longest-first."""
    logs = folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    if way == "one-by-one":
        text = one_by_one(batch, pus, logs, stream_bench)
    elif way == "all-at-once":
        text = all_at_once(batch, pus, logs, stream_bench)
    elif way in ("xargs", "longest-first"):
        order = ([task.id for task in batch.tasks] if way == "xargs" else longest_first_order(batch, durations))
        text, commands = xargs_way(batch, order, pus, logs, stream_bench)
        (folder / "commands").write_text(commands)
    else:
        raise BatchError(f"unknown way {way}")
    script = folder / "run.sh"
    script.write_text(f"# {way}: batch {batch.name} ({batch.path}), written by bench/batch_vs_naive.py\n" + text)
    return script
