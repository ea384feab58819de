#!/usr/bin/python3
"""Co-run fidelity benchmark (issue 10, part 4): how well do the two predictions match co-running tasks?

Random mixes of 2-4 STREAM tasks (kernels x footprints x fast chunks x cores) run together on this node through
the built `cosched` CLI, exactly as a user would: calibrate the node once, then for each mix profile each task as a
whole process (`cosched profile --measurer process`), build the instance with the node's bandwidth model
(`cosched instance --node`), write a list schedule in which the tasks co-run, launch it (`cosched launch
--instance`) and read the journal (`cosched report --json`). Per task and per mix it compares the observed time
with the paper model's prediction (each task's profile alone) and the contention-aware one (the fluid model over
the node's memory pools). One mix's plan is launched again several times, spread over the run: the spread of its
observed makespans is the noise floor, printed next to every fidelity figure. A reference point profiled before, during and after the
mixes shows the drift of the machine over the run.

Measures, never asserts: the numbers go to stdout, corun_fidelity.csv and corun_fidelity.json (docs/fidelity.md).
Python 3 standard library only; matplotlib only for --plot.
"""

import argparse
import csv
import datetime
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path

KERNELS = ("write", "ddot", "copy", "scale", "add", "triad")
MIB = 1 << 20
# The emulated node (as the demo's): 480 MiB of "fast" memory in 20 chunks of 24 MiB, slow:fast ratio 5. Every
# footprint is a whole number of chunks and well beyond this VM's 32 MiB L3, so tasks are memory-bound.
FAST_MIB = 480
CHUNKS = 20
CHUNK_MIB = FAST_MIB // CHUNKS
EMULATION_RATIO = 5.0
FOOTPRINTS_MIB = tuple(range(48, 289, CHUNK_MIB))  # 48, 72, ..., 288
TASK_SECONDS = (0.3, 0.8)  # target time of a task alone, drawn per task; co-running stretches it
REFERENCE = {"kernel": "triad", "footprint_mib": 96, "cores": 1, "chunks": 0}  # the drift probe's point
EMULATED = "EMULATED"


class BenchError(RuntimeError):
    pass


# ---- running the CLI ------------------------------------------------------------------------------------------


class Cosched:
    """The built `cosched`: runs one command, returns its stdout, raises BenchError with its stderr on failure."""

    def __init__(self, bin_dir: Path, log):
        self.exe = bin_dir / "cosched"
        self.log = log
        for program in ("cosched", "stream_bench"):
            if not (bin_dir / program).is_file():
                raise BenchError(f"{bin_dir / program} is missing: build the targets cosched and stream_bench "
                                 f"(or pass --bin)")

    def __call__(self, *args, cwd=None) -> str:
        command = [str(self.exe), *map(str, args)]
        self.log.write("$ " + " ".join(command) + "\n")
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
        self.log.write(done.stdout + done.stderr)
        self.log.flush()
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise BenchError(f"`cosched {args[0]}` ended with {done.returncode}: {last}")
        return done.stdout


# ---- the node and the tasks' sizes ------------------------------------------------------------------------------


def write_platform(path: Path, cores: int) -> None:
    path.write_text(f"""# The co-run fidelity benchmark's node: this machine's cores, an EMULATED fast tier (docs/emulation.md).
name = "fidelity-emulated"
cores = {cores}
[fast_memory]
capacity_mib = {FAST_MIB}
chunks = {CHUNKS}
tier_backend = "emulated"
emulation_ratio = {EMULATION_RATIO}
""")


def node_gbs(node_path: Path) -> dict:
    """GB/s at 1..n cores per kernel (and "*" for the pool curve) of the node file's pool serving the slow tier."""
    node = tomllib.loads(node_path.read_text())
    pool = next(p for p in node["pools"] if "slow" in p["tiers"])
    curves = {"*": dict(zip(pool["cores"], pool["gbs"]))}
    for kernel, curve in pool.get("kernels", {}).items():
        curves[kernel] = dict(zip(curve["cores"], curve["gbs"]))
    return {"pool": pool["name"], "curves": curves, "provenance": node.get("provenance", {})}


class PassChooser:
    """Passes that make a task run a target time alone: the time its passes stream at the node file's bandwidth (one
    pass moves the footprint once, its slow part EMULATION_RATIO times), times what whole processes of earlier
    tasks of the kernel took over that (first touch, a fresh process's slow start, validation: what the process
    measurer absorbs)."""

    def __init__(self, gbs: dict):
        self.gbs = gbs
        self.correction = {}  # kernel -> [whole process time / steady streaming time of its passes]

    def _bandwidth(self, kernel: str, cores: int) -> float:
        curve = self.gbs["curves"].get(kernel, self.gbs["curves"]["*"])
        known = [c for c in curve if c <= cores]
        return (curve[max(known)] if known else curve[min(curve)] * cores / min(curve)) * 1e9

    def streaming_s(self, task: dict, passes: int) -> float:
        footprint = task["footprint_mib"] * MIB
        fast = min(1.0, task["chunks"] * CHUNK_MIB * MIB / footprint)
        bytes_moved = footprint * (fast + (1 - fast) * EMULATION_RATIO)
        return passes * bytes_moved / self._bandwidth(task["kernel"], task["cores"])

    def choose(self, task: dict, target_s: float) -> int:
        ratios = self.correction.get(task["kernel"]) or [r for rs in self.correction.values() for r in rs] or [1.5]
        return max(1, min(100_000, round(target_s / (self.streaming_s(task, 1) * statistics.median(ratios)))))

    def learn(self, task: dict, measured_s: float) -> None:
        self.correction.setdefault(task["kernel"], []).append(measured_s / self.streaming_s(task, task["passes"]))


# ---- mixes ---------------------------------------------------------------------------------------------------


def fit_chunks(footprint_mib: int) -> int:
    return min(CHUNKS, math.ceil(footprint_mib / CHUNK_MIB))


def draw_mix(rng: random.Random, cores: int) -> list:
    """2-4 tasks with distinct (kernel, footprint); the first two use 1 core each and fit the fast tier together,
    so they start together and co-run; a later task may take all cores (it then runs alone, between co-runs)."""
    size = rng.randint(2, 4)
    pairs = rng.sample([(k, f) for k in KERNELS for f in FOOTPRINTS_MIB], size)
    tasks = []
    for index, (kernel, footprint) in enumerate(pairs):
        task_cores = cores if index >= 2 and cores > 1 and rng.random() < 0.2 else 1
        tasks.append({"kernel": kernel, "footprint_mib": footprint, "cores": task_cores,
                      "chunks": rng.randint(0, fit_chunks(footprint))})
    while tasks[0]["chunks"] + tasks[1]["chunks"] > CHUNKS:
        tasks[1]["chunks"] = rng.randint(0, fit_chunks(tasks[1]["footprint_mib"]))
    return tasks


def closed_time(times: list, cores_capacity: int, chunks_capacity: int, cores: int, chunks: int) -> float:
    """t(cores, chunks) after the monotone closure the scheduler applies on load (min over smaller allocations)."""
    width = chunks_capacity + 1
    best = math.inf
    for c in range(cores + 1):
        for k in range(chunks + 1):
            value = times[c * width + k]
            if value is not None:
                best = min(best, value)
    return best


def list_schedule(instance: dict, allocs: dict) -> dict:
    """A list schedule of the instance's tasks in their order with the given allocations: each task starts at the
    first moment (not before the previous task's start: list order) at which its cores and chunks are free. The
    Schedule JSON of docs/formats.md, with the instance's closed times as durations."""
    capacities = [r["capacity"] for r in instance["resources"]]
    placed, tasks, previous_start = [], [], 0.0
    for task in instance["tasks"]:
        alloc = allocs[task["id"]]
        duration = closed_time(task["times"], capacities[0], capacities[1], *alloc)
        candidates = sorted({previous_start} | {end for _, end, _ in placed if end > previous_start})
        for start in candidates:
            used = [0] * len(capacities)
            for s, e, a in placed:
                if s <= start < e:
                    used = [u + x for u, x in zip(used, a)]
            if all(u + x <= cap for u, x, cap in zip(used, alloc, capacities)):
                break
        placed.append((start, start + duration, alloc))
        tasks.append({"id": task["id"], "alloc": list(alloc), "start": start, "duration": duration})
        previous_start = start
    return {"algorithm": "fidelity-mix", "makespan": max(e for _, e, _ in placed),
            "resources": instance["resources"], "tasks": tasks}


def overlaps(interval, others) -> float:
    start, end = interval
    return sum(max(0.0, min(end, e) - max(start, s)) for s, e in others)


# ---- one mix -------------------------------------------------------------------------------------------------


def profile_task(cosched, folder: Path, platform: Path, task: dict, reps: int) -> float:
    """Profiles the task's one point as whole processes; returns the process time (per-pass median x passes)."""
    csv_path = folder / f"profile-{task['kernel']}-{task['footprint_mib']}MiB.csv"
    cosched("profile", "--measurer", "process", "--platform", platform, "--kernels", task["kernel"],
            "--footprints-mib", task["footprint_mib"], "--cores", task["cores"], "--chunks", task["chunks"],
            "--passes", task["passes"], "--reps", reps, "--warmup", 0, "--quiet", "--force", "-o", csv_path)
    with csv_path.open() as f:
        row = next(csv.DictReader(f))
    task["profile"] = str(csv_path)
    task["profile_spread"] = (float(row["time_max_s"]) - float(row["time_min_s"])) / float(row["time_s"])
    return float(row["time_s"]) * task["passes"]


def write_workload(path: Path, name: str, tasks: list) -> None:
    lines = [f'name = "{name}"', 'description = "a co-run mix of bench/corun_fidelity.py"']
    for task in tasks:
        lines += ["[[tasks]]", f'kernel = "{task["kernel"]}"', f"footprint_mib = {task['footprint_mib']}",
                  "count = 1", f"passes = {task['passes']}"]
    path.write_text("\n".join(lines) + "\n")


def launch(cosched, folder: Path, platform: Path, schedule: Path, instance: Path, journal: Path) -> dict:
    cosched("launch", schedule, "--workload", instance, "--instance", instance, "--platform", platform,
            "--journal", journal, "--policy", "list", "--timeout", 120, "--force")
    return json.loads(cosched("report", journal, "--json"))


def error(observed, predicted):
    return None if predicted in (None, 0) or observed is None else observed / predicted - 1.0


def inside_process(log: Path, observed_s: float) -> dict:
    """From a launched task's stream_bench --json output: the share of its process time outside its kernel passes
    (fork/exec, allocation and first touch, validation) and how much slower its first 3 passes ran than its median
    one (a fresh process's slow start, together with the co-runners' own)."""
    try:
        reps = json.loads(log.read_text())["rep_times_s"]
    except (OSError, ValueError, KeyError):
        return {"outside_passes_share": None, "first_passes_over_median": None}
    return {"outside_passes_share": 1.0 - sum(reps) / observed_s if observed_s > 0 else None,
            "first_passes_over_median": statistics.median(reps[:3]) / statistics.median(reps)}


def read_launch(report: dict, tasks: list, logs: Path) -> dict:
    """The mix's and each task's predicted (both models) and observed times from `cosched report --json`, and what
    each task's own output says about its process (`logs`: the launch's log folder)."""
    rows = {row["task"]: row for row in report["tasks"]}
    intervals = {t["id"]: (rows[t["id"]]["observed_start"], rows[t["id"]]["observed_end"]) for t in tasks}
    out = []
    for task in tasks:
        row = rows[task["id"]]
        observed = row["observed_end"] - row["observed_start"]
        paper = row["planned_end"] - row["planned_start"]
        contention = None
        if row.get("predicted_contention_end") is not None:
            contention = row["predicted_contention_end"] - row["predicted_contention_start"]
        others = [v for k, v in intervals.items() if k != task["id"]]
        out.append({"id": task["id"], "status": row["status"], "observed_s": observed, "predicted_paper_s": paper,
                    "predicted_contention_s": contention, "error_paper": error(observed, paper),
                    "error_contention": error(observed, contention),
                    "co_run_fraction": overlaps(intervals[task["id"]], others) / observed if observed > 0 else 0.0,
                    **inside_process(logs / f"{task['id']}.out", observed)})
    observed = report["observed_makespan"]
    return {"observed_makespan": observed, "predicted_makespan": report["predicted_makespan"],
            "predicted_makespan_contention": report.get("predicted_makespan_contention"),
            "error_paper": error(observed, report["predicted_makespan"]),
            "error_contention": error(observed, report.get("predicted_makespan_contention")),
            "tasks_completed": report["tasks_completed"], "tasks": out}


def run_mix(cosched, args, number: int, tasks: list, chooser: PassChooser, platform: Path, node: Path) -> dict:
    folder = args.output / f"mix-{number:02d}"
    folder.mkdir(exist_ok=True)
    load_before = os.getloadavg()[0]
    for task in tasks:
        task["target_s"] = round(random.Random(f"{args.seed}-{number}-{task['kernel']}").uniform(*TASK_SECONDS), 3)
        task["passes"] = chooser.choose(task, task["target_s"])
        task["profiled_s"] = profile_task(cosched, folder, platform, task, args.reps)
        chooser.learn(task, task["profiled_s"])
    workload = folder / "workload.toml"
    write_workload(workload, f"mix-{number:02d}", tasks)
    instance_path = folder / "instance.json"
    cosched("instance", "--workload", workload, "--profiles", ",".join(t["profile"] for t in tasks), "--platform",
            platform, "--node", node, "-o", instance_path, "--force")
    instance = json.loads(instance_path.read_text())
    allocs = {}
    for task, entry in zip(tasks, instance["tasks"]):
        assert entry["kernel"] == task["kernel"] and entry["footprint_bytes"] == task["footprint_mib"] * MIB
        task["id"] = entry["id"]
        allocs[entry["id"]] = (task["cores"], task["chunks"])
    schedule = folder / "schedule.json"
    schedule.write_text(json.dumps(list_schedule(instance, allocs), indent=1) + "\n")
    journal = folder / "journal.jsonl"
    result = read_launch(launch(cosched, folder, platform, schedule, instance_path, journal), tasks,
                         Path(f"{journal}.logs"))
    for task, row in zip(tasks, result["tasks"]):
        row.update({k: task[k] for k in ("kernel", "footprint_mib", "cores", "chunks", "passes", "profiled_s",
                                         "profile_spread")})
    result.update({"mix": number, "folder": str(folder), "schedule": str(schedule), "instance": str(instance_path),
                   "load_before": load_before, "load_after": os.getloadavg()[0]})
    return result


# ---- summaries -----------------------------------------------------------------------------------------------


def abs_summary(values: list) -> dict:
    values = [abs(v) for v in values if v is not None]
    if not values:
        return {"n": 0, "median_abs": None, "worst_abs": None}
    return {"n": len(values), "median_abs": statistics.median(values), "worst_abs": max(values)}


def ratio_median(values: list):
    values = [1 + v for v in values if v is not None]
    return statistics.median(values) if values else None


SLOW_PART_BINS_MIB = ((0, 1), (1, 32), (32, 96), (96, 1 << 20))


def slow_part_mib(task: dict) -> float:
    return max(0.0, task["footprint_mib"] - task["chunks"] * CHUNK_MIB)


def summarize(mixes: list, chooser: PassChooser) -> dict:
    tasks = [t for m in mixes for t in m["tasks"]]
    co_run = [t for t in tasks if t["co_run_fraction"] >= 0.5]
    alone = [t for t in tasks if t["co_run_fraction"] < 0.1]
    summary = {"mixes": len(mixes), "tasks": len(tasks)}
    for label, rows, key in (("mix_makespan", mixes, None), ("task_time", tasks, None)):
        summary[label] = {model: abs_summary([r[f"error_{model}"] for r in rows]) for model in ("paper", "contention")}
    for label, rows in (("co_running_tasks", co_run), ("alone_tasks", alone)):
        summary[label] = {"n": len(rows),
                          "median_observed_over_paper": ratio_median([r["error_paper"] for r in rows]),
                          "median_observed_over_contention": ratio_median([r["error_contention"] for r in rows])}
    # Where the co-run slowdown comes from: co-running tasks by the size of their slow part, which the emulated tier
    # streams EMULATION_RATIO times (the DRAM traffic of a pass); below the L3 (32 MiB) the re-streams can hit it.
    summary["co_running_by_slow_part"] = []
    for low, high in SLOW_PART_BINS_MIB:
        rows = [t for t in co_run if low <= slow_part_mib(t) < high]
        summary["co_running_by_slow_part"].append(
            {"slow_mib": [low, high], "n": len(rows),
             "median_observed_over_paper": ratio_median([r["error_paper"] for r in rows]),
             "median_observed_over_contention": ratio_median([r["error_contention"] for r in rows])})
    # What the profiles themselves show: the spread of the 3 fresh processes of one point (bimodal bandwidth between
    # allocations, the slow start of a fresh process), and a whole process over what the node's steady streaming
    # bandwidth gives for its passes (first touch, warm-up, validation: what the process measurer absorbs).
    for key in ("outside_passes_share", "first_passes_over_median"):
        values = [t[key] for t in tasks if t[key] is not None]
        summary[key] = {"median": statistics.median(values), "max": max(values)} if values else None
    spreads = [t["profile_spread"] for t in tasks]
    summary["profile_spread"] = {"median": statistics.median(spreads), "max": max(spreads)}
    summary["whole_process_over_steady_streaming"] = {k: statistics.median(v) for k, v in chooser.correction.items()}
    loads = [m["load_before"] for m in mixes] + [m["load_after"] for m in mixes]
    summary["load_average"] = {"median": statistics.median(loads), "max": max(loads)}
    return summary


def spread(values: list) -> dict:
    median = statistics.median(values)
    return {"n": len(values), "values": values, "median": median, "min": min(values), "max": max(values),
            "half_range_over_median": (max(values) - min(values)) / (2 * median),
            "cv": statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else 0.0}


class NoiseFloor:
    """One mix's plan launched again and again, the launches spread evenly over the run (after the mixes whose turn
    it is), so that the spread covers the same stretch of time, and the same drift, as the fidelity figures. The mix
    is the first with at least 3 tasks."""

    def __init__(self, cosched, args, platform: Path):
        self.cosched, self.args, self.platform = cosched, args, platform
        self.mix, self.launches = None, []

    def after_mix(self, mix: dict, number: int) -> None:
        if self.mix is None and len(mix["tasks"]) >= 3:
            self.mix = mix
        due = number * self.args.noise_launches // self.args.mixes
        while self.mix is not None and len(self.launches) < due:
            self._launch()

    def finish(self, mixes: list) -> dict:
        if self.mix is None and mixes:
            self.mix = mixes[0]
        while self.mix is not None and len(self.launches) < self.args.noise_launches:
            self._launch()
        if not self.launches:
            return {}
        observed = [launch["observed_makespan"] for launch in self.launches]
        floor = spread(observed)
        floor.update({"mix": self.mix["mix"], "launches": self.launches,
                      "predicted_makespan": self.launches[0]["predicted_makespan"],
                      "predicted_makespan_contention": self.launches[0]["predicted_makespan_contention"]})
        return floor

    def _launch(self) -> None:
        folder = Path(self.mix["folder"])
        index = len(self.launches)
        load = os.getloadavg()[0]
        report = launch(self.cosched, folder, self.platform, Path(self.mix["schedule"]), Path(self.mix["instance"]),
                        folder / f"noise-{index}.jsonl")
        observed = report["observed_makespan"]
        self.launches.append({"observed_makespan": observed, "predicted_makespan": report["predicted_makespan"],
                              "predicted_makespan_contention": report.get("predicted_makespan_contention"),
                              "error_paper": error(observed, report["predicted_makespan"]),
                              "error_contention": error(observed, report.get("predicted_makespan_contention")),
                              "load_before": load, "wall_s": time.time()})
        print(f"  noise floor: mix {self.mix['mix']} again ({index + 1}/{self.args.noise_launches}): observed "
              f"makespan {observed:.3f} s", flush=True)


def drift_probe(cosched, args, platform: Path, chooser: PassChooser, label: str, probes: list) -> None:
    task = dict(REFERENCE)
    if not probes:
        task["passes"] = chooser.choose(task, 0.5)
    else:
        task["passes"] = probes[0]["passes"]
    folder = args.output / "drift"
    folder.mkdir(exist_ok=True)
    seconds = profile_task(cosched, folder, platform, task, args.reps)
    probes.append({"at": label, "time_s": seconds, "passes": task["passes"], "spread": task["profile_spread"],
                   "wall_s": time.time(), "load": os.getloadavg()[0]})
    os.replace(task["profile"], folder / f"reference-{len(probes) - 1}.csv")


# ---- output --------------------------------------------------------------------------------------------------


def pct(value) -> str:
    return "n/a" if value is None else f"{100 * value:+.1f}%"


def apct(value) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def num(value) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def print_tables(mixes: list, summary: dict, floor: dict, drift: dict) -> None:
    print(f"\nper task ({EMULATED} fast tier: emulated backend, {FAST_MIB} MiB in {CHUNKS} chunks, ratio "
          f"{EMULATION_RATIO:g}); times in s; error = observed / predicted - 1")
    print(f"{'mix':>3} {'task':<20} {'c':>1} {'k':>2} {'passes':>6} {'paper':>7} {'content.':>8} {'observed':>8} "
          f"{'err paper':>9} {'err cont.':>9} {'co-run':>6}")
    for mix in mixes:
        for t in mix["tasks"]:
            print(f"{mix['mix']:>3} {t['id']:<20} {t['cores']:>1} {t['chunks']:>2} {t['passes']:>6} "
                  f"{num(t['predicted_paper_s']):>7} {num(t['predicted_contention_s']):>8} "
                  f"{num(t['observed_s']):>8} {pct(t['error_paper']):>9} {pct(t['error_contention']):>9} "
                  f"{100 * t['co_run_fraction']:>5.0f}%")
    print(f"\nper mix (makespans in s, {EMULATED})")
    print(f"{'mix':>3} {'tasks':>5} {'paper':>7} {'content.':>8} {'observed':>8} {'err paper':>9} {'err cont.':>9} "
          f"{'load':>9}")
    for mix in mixes:
        print(f"{mix['mix']:>3} {len(mix['tasks']):>5} {num(mix['predicted_makespan']):>7} "
              f"{num(mix['predicted_makespan_contention']):>8} {num(mix['observed_makespan']):>8} "
              f"{pct(mix['error_paper']):>9} {pct(mix['error_contention']):>9} "
              f"{mix['load_before']:>4.2f}-{mix['load_after']:<4.2f}")
    print(f"\nfidelity summary ({EMULATED}): |observed / predicted - 1|, median and worst")
    for label, title in (("mix_makespan", f"over {summary['mixes']} mixes (makespan)"),
                         ("task_time", f"over {summary['tasks']} tasks (time of each task)")):
        p, c = summary[label]["paper"], summary[label]["contention"]
        print(f"  {title:<38} paper model {apct(p['median_abs'])} (worst {apct(p['worst_abs'])}); "
              f"contention-aware {apct(c['median_abs'])} (worst {apct(c['worst_abs'])})")
    for label, title in (("co_running_tasks", "co-running tasks"), ("alone_tasks", "tasks that ran alone")):
        row = summary[label]
        print(f"  {title} ({row['n']}): median observed/predicted {num(row['median_observed_over_paper'])} "
              f"(paper), {num(row['median_observed_over_contention'])} (contention-aware)")
    for row in summary["co_running_by_slow_part"]:
        low, high = row["slow_mib"]
        if row["n"]:
            span = "none" if high <= 1 else f"{low}-{high} MiB" if high < 1 << 20 else f">= {low} MiB"
            print(f"    co-running with slow part {span:<11} ({row['n']:>2}): median observed/predicted "
                  f"{num(row['median_observed_over_paper'])} (paper), "
                  f"{num(row['median_observed_over_contention'])} (contention-aware)")
    if floor:
        print(f"  noise floor: mix {floor['mix']} launched {floor['n']} more times over the run: observed makespans "
              f"{floor['min']:.3f}-{floor['max']:.3f} s (median {floor['median']:.3f}): half range / median "
              f"{apct(floor['half_range_over_median'])}, CV {apct(floor['cv'])}")
        for model in ("paper", "contention"):
            errors = [launch[f"error_{model}"] for launch in floor["launches"] if launch[f"error_{model}"] is not None]
            if errors:
                print(f"    its {model} error over those launches: {pct(min(errors))} to {pct(max(errors))}")
    print(f"  profiles: the fresh processes of one point spread by (max - min) / median "
          f"{apct(summary['profile_spread']['median'])} (median over points; worst "
          f"{apct(summary['profile_spread']['max'])}); a whole process takes "
          + ", ".join(f"{k} {v:.2f}x" for k, v in sorted(summary["whole_process_over_steady_streaming"].items()))
          + " the time its passes stream at the calibrated bandwidth")
    if summary["outside_passes_share"] and summary["first_passes_over_median"]:
        print(f"  inside the launched processes: outside the kernel passes (start, first touch, validation) "
              f"{apct(summary['outside_passes_share']['median'])} of the time (median; max "
              f"{apct(summary['outside_passes_share']['max'])}); the first 3 passes "
              f"{summary['first_passes_over_median']['median']:.2f}x the median pass (median; max "
              f"{summary['first_passes_over_median']['max']:.2f}x)")
    print(f"  load average during the mixes: median {summary['load_average']['median']:.2f}, max "
          f"{summary['load_average']['max']:.2f} (1 min, {len(os.sched_getaffinity(0))} cores)")
    if drift:
        print(f"  drift: reference point {REFERENCE['kernel']} {REFERENCE['footprint_mib']} MiB alone, profiled "
              f"{drift['n']} times over the run: {drift['min']:.3f}-{drift['max']:.3f} s, half range / median "
              f"{apct(drift['half_range_over_median'])}")


CSV_FIELDS = ("level", "mix", "task", "kernel", "footprint_mib", "cores", "chunks", "passes", "tier",
              "predicted_paper_s", "predicted_contention_s", "observed_s", "error_paper", "error_contention",
              "co_run_fraction", "profile_spread", "outside_passes_share", "first_passes_over_median", "load_before",
              "load_after")


def write_csv(path: Path, mixes: list) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, CSV_FIELDS)
        writer.writeheader()
        for mix in mixes:
            writer.writerow({"level": "mix", "mix": mix["mix"], "tier": EMULATED,
                             "predicted_paper_s": mix["predicted_makespan"],
                             "predicted_contention_s": mix["predicted_makespan_contention"],
                             "observed_s": mix["observed_makespan"], "error_paper": mix["error_paper"],
                             "error_contention": mix["error_contention"], "load_before": mix["load_before"],
                             "load_after": mix["load_after"]})
            for t in mix["tasks"]:
                writer.writerow({"level": "task", "mix": mix["mix"], "task": t["id"], "tier": EMULATED,
                                 **{k: t[k] for k in CSV_FIELDS if k in t}})


def plot(path: Path, mixes: list) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5), sharey=True)
    for axis, (key, title) in zip(axes, (("predicted_paper_s", "paper model"),
                                         ("predicted_contention_s", "contention-aware"))):
        rows = [t for m in mixes for t in m["tasks"] if t[key] is not None]
        for co_run, colour, label in ((True, "tab:red", "co-running"), (False, "tab:blue", "alone or partly")):
            chosen = [t for t in rows if (t["co_run_fraction"] >= 0.5) == co_run]
            axis.scatter([t[key] for t in chosen], [t["observed_s"] for t in chosen], s=14, c=colour, label=label)
        top = max([t["observed_s"] for t in rows] + [t[key] for t in rows] + [0.1]) * 1.05
        axis.plot([0, top], [0, top], "k--", lw=0.8)
        axis.set(title=f"{title} ({EMULATED} fast tier)", xlabel="predicted task time (s)", xlim=(0, top),
                 ylim=(0, top))
        axis.legend()
    axes[0].set_ylabel("observed task time (s)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


# ---- main ----------------------------------------------------------------------------------------------------


def parse_arguments():
    repo = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=Path, default=repo / "build" / "bin", help="folder of cosched and stream_bench")
    parser.add_argument("--output", type=Path, default=None, help="output folder (default corun-fidelity-<UTC time>)")
    parser.add_argument("--mixes", type=int, default=30, help="random co-run mixes (default 30)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the mixes (default 1)")
    parser.add_argument("--node", type=Path, default=None, help="node file to reuse instead of `cosched calibrate`")
    parser.add_argument("--reps", type=int, default=3, help="timed processes per profiled point (default 3)")
    parser.add_argument("--noise-launches", type=int, default=5, help="launches of one plan for the noise floor")
    parser.add_argument("--drift-every", type=int, default=10, help="mixes between drift probes (0: none)")
    parser.add_argument("--plot", action="store_true", help="corun_fidelity.png (needs matplotlib)")
    args = parser.parse_args()
    if args.mixes < 1 or args.reps < 1 or args.noise_launches < 0 or args.drift_every < 0:
        parser.error("--mixes and --reps must be >= 1, --noise-launches and --drift-every >= 0")
    if args.noise_launches in (1, 2):
        parser.error("--noise-launches: at least 3 launches make a spread (0: no noise floor)")
    args.output = args.output or stamped_folder("corun-fidelity")
    return args


def stamped_folder(prefix: str) -> Path:
    """A benchmark's default output folder: PREFIX-<UTC time>."""
    return Path(f"{prefix}-{datetime.datetime.utcnow():%Y%m%d-%H%M%S}")


def main() -> int:
    args = parse_arguments()
    args.output.mkdir(parents=True, exist_ok=True)
    cores = len(os.sched_getaffinity(0))
    if cores < 2:
        raise BenchError("co-running needs at least 2 allowed cores")
    started = time.time()
    load_start = os.getloadavg()
    with (args.output / "commands.log").open("w") as log:
        cosched = Cosched(args.bin, log)
        print(f"co-run fidelity: {args.mixes} mixes (seed {args.seed}) on {cores} cores, {EMULATED} fast tier; "
              f"load average {load_start[0]:.2f}; output {args.output}", flush=True)
        platform = args.output / "platform.toml"
        write_platform(platform, cores)
        node = args.node
        if node is None:
            node = args.output / "node.toml"
            print("calibrating the node (cosched calibrate --tier-backend emulated) ...", flush=True)
            calibrate_start = time.time()
            cosched("calibrate", "--tier-backend", "emulated", "--output", node, "--force", "--quiet")
            print(f"  {time.time() - calibrate_start:.1f} s", flush=True)
        gbs = node_gbs(node)
        chooser = PassChooser(gbs)
        rng = random.Random(args.seed)
        probes, mixes, failures = [], [], []
        noise = NoiseFloor(cosched, args, platform)
        if args.drift_every:
            drift_probe(cosched, args, platform, chooser, "start", probes)
        for number in range(1, args.mixes + 1):
            tasks = draw_mix(rng, cores)
            described = ", ".join(f"{t['kernel']} {t['footprint_mib']} MiB c{t['cores']} k{t['chunks']}"
                                  for t in tasks)
            print(f"mix {number}/{args.mixes}: {described}", flush=True)
            try:
                mix = run_mix(cosched, args, number, tasks, chooser, platform, node)
            except BenchError as failure:
                print(f"  FAILED: {failure}", flush=True)
                failures.append({"mix": number, "error": str(failure)})
                continue
            mixes.append(mix)
            noise.after_mix(mix, number)
            print(f"  makespan predicted {num(mix['predicted_makespan'])} (paper), "
                  f"{num(mix['predicted_makespan_contention'])} (contention-aware), observed "
                  f"{mix['observed_makespan']:.3f} s", flush=True)
            if args.drift_every and number % args.drift_every == 0 and number < args.mixes:
                drift_probe(cosched, args, platform, chooser, f"after mix {number}", probes)
        if args.drift_every:
            drift_probe(cosched, args, platform, chooser, "end", probes)
        if not mixes:
            raise BenchError(f"every mix failed; first: {failures[0]['error']}")
        floor = noise.finish(mixes)
    summary = summarize(mixes, chooser)
    drift = spread([p["time_s"] for p in probes]) if len(probes) > 1 else {}
    print_tables(mixes, summary, floor, drift)
    load_end = os.getloadavg()
    print(f"\n{len(mixes)} mixes ({len(failures)} failed) in {time.time() - started:.0f} s; load average "
          f"{load_start[0]:.2f} at the start, {load_end[0]:.2f} at the end (1 min) on {cores} cores; {EMULATED}")
    document = {
        "benchmark": "bench/corun_fidelity.py", "date_utc": datetime.datetime.utcnow().isoformat() + "Z",
        "host": socket.gethostname(), "cores": cores, "seed": args.seed, "reps": args.reps,
        "tier": {"backend": "emulated", "emulated": True, "label": EMULATED, "fast_mib": FAST_MIB,
                 "chunks": CHUNKS, "emulation_ratio": EMULATION_RATIO},
        "node_file": str(node), "node_pool": gbs["pool"], "node_gbs": gbs["curves"],
        "load_average": {"start": load_start, "end": load_end}, "wall_s": time.time() - started,
        "summary": summary, "noise_floor": floor, "drift": {"probes": probes, **drift},
        "failures": failures, "mixes": mixes}
    (args.output / "corun_fidelity.json").write_text(json.dumps(document, indent=1) + "\n")
    write_csv(args.output / "corun_fidelity.csv", mixes)
    if args.plot:
        plot(args.output / "corun_fidelity.png", mixes)
    print(f"wrote {args.output / 'corun_fidelity.csv'} and {args.output / 'corun_fidelity.json'}")
    return 0


def run_main(main, name: str) -> None:
    """A benchmark's entry point (this one's, and those that import it): main's exit code; a BenchError is one line
    on stderr and exit 1, Ctrl-C exit 130."""
    try:
        sys.exit(main())
    except BenchError as failure:
        print(f"{name}: {failure}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        sys.exit(130)


def closing_line(started: float, load_start: tuple) -> tuple:
    """The last line of an emulated-tier benchmark (wall time, load average at the start and end, cores) and the
    load average at the end."""
    load_end = os.getloadavg()
    return (f"{time.time() - started:.0f} s; load average {load_start[0]:.2f} at the start, {load_end[0]:.2f} at "
            f"the end (1 min) on {len(os.sched_getaffinity(0))} cores; {EMULATED}", load_end)


if __name__ == "__main__":
    run_main(main, "corun_fidelity")
