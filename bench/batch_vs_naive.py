#!/usr/bin/python3
"""The benchmark that matters (issue 39): a user's batch run by `cosched run` against the ways a user runs it
without cosched, each as the wall time of the whole command (profiling included), as ratios to the best naive way.

Ways with cosched (`cosched run BATCH --cache C --output <fresh folder>`, everything else its defaults):
  cosched-empty   an empty cache: nothing known of the node or the batch (a user's first run: the batch runs the
                  naive way and is learnt from);
  cosched-node    a cache that holds only the node's model (node.toml, profiler/include/cosched/profiler/
                  profile_cache.hpp): the node is calibrated, the batch unseen;
  cosched-cached  the cache the batch's earlier runs filled (the knowledge store: what they observed and profiled;
                  a user's next run — it keeps learning, round after round);
  cosched-new-kind  a copy of that cache without what it knows of the batch's longest program (by the preparing
                  run's journal; every task running it): a user's batch where one program is new or changed;
  cosched-profiled  (not run by default: a ceiling, not a user's way) the warm cache after one run that profiled
                  every kind at every core count (--profile-strategy exhaustive, no budget limit; its cost is not
                  counted): what a plan can gain with everything known.
Ways without (bench/batch_ways.py writes each as a shell script, kept in its run folder):
  one-by-one      each task in turn with all cores;      all-at-once   every task at once, one core each;
  xargs           `xargs -P <cores>`, one core each, in the file's order;
  longest-first   the same, longest task first (durations from the preparing run's journal, `cosched report`).
A STREAM task of a naive way gets the memory a program gets without asking (--naive-memory node): on a node whose
fast tier cosched emulates, the emulated slow tier — a flat-mode KNL's DDR —, not plain memory, which runs as fast as
the emulated fast tier and so would give the naive ways the fast tier for nothing.

Batches (--batch, comma-separated names or files): debian (configs/workloads/debian-programs.json: programs from
Debian packages, moldable by threads; its inputs are made here, deterministically, in <output>/<batch>/work, where
every way of it runs), debian-work (configs/workloads/debian-work.json: three of those programs compressing the
first {work} MiB of an input — programs that say how their work scales, so that a first run measures them by short
runs; its inputs made as debian's), readme (configs/workloads/my-batch.json, the README's example), demo-mixed (the
demo's mixed batch, configs/workloads/demo-mixed.toml, written as commands: stream_bench argvs), or any batch file.

The first cosched-empty run of a batch (round 1 starts with it) fills the cache that cosched-cached and cosched-node
use, and its journal's durations order longest-first; when round 1 starts with another way, a run of `cosched run`
before the rounds does (its preparation). Every round runs every way once, the order rotated by one way per round
(ABC.., BC..A, ...), with --pause seconds before each run. Per way: the min / median / max wall time, each round's time over that round's best naive way, the load
average before each run and the CPU steal during it; for cosched ways the batch's predicted makespan (contention-
aware, paper model), the 80 % interval it stated and whether the batch fell inside it, and its observed makespan,
from `cosched report --json` of the run's journal.

    bench/batch_vs_naive.py --batch debian,readme --rounds 3     # the baseline of docs/end-to-end.md
    bench/batch_vs_naive.py --batch my-batch.json --ways xargs,cosched-cached --rounds 5 --pause 5
    bench/batch_vs_naive.py --quick                # checks the script: 1 round of every way, small inputs
    bench/batch_vs_naive.py --quick --dry-run      # writes every way's command lines and runs nothing

Measures, never asserts: a table on stdout, batch_vs_naive.json in the output folder (--plot FILE draws the ratios
with matplotlib). Python 3 standard library only (matplotlib for --plot).
"""

import argparse
import datetime
import json
import os
import shlex
import shutil
import socket
import statistics
import subprocess
import time
from pathlib import Path

from batch_ways import (EMULATED_SLOW_MEMORY, WAYS_NAIVE, Batch, BatchError, StreamBench, load_batch,
                        mixed_as_commands, write_naive_way)
from corun_fidelity import BenchError, run_main, stamped_folder
from debian_inputs import check_programs, make_inputs

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = ROOT / "configs" / "workloads"
WAYS_COSCHED = ("cosched-empty", "cosched-node", "cosched-cached", "cosched-new-kind", "cosched-profiled")
WAYS = WAYS_COSCHED + WAYS_NAIVE
WAYS_DEFAULT = tuple(way for way in WAYS if way != "cosched-profiled")
WAYS_AFTER_A_RUN = {"cosched-node", "cosched-cached", "cosched-new-kind", "cosched-profiled", "longest-first"}
NAMED_BATCHES = {"debian": WORKLOADS / "debian-programs.json", "readme": WORKLOADS / "my-batch.json",
                 "demo-mixed": WORKLOADS / "demo-mixed.toml", "debian-work": WORKLOADS / "debian-work.json"}
WITH_INPUTS = ("debian", "debian-work")  # batches of the Debian programs: their inputs are made in the work folder
DEMO_FAST_MIB = 480  # the demo's emulated fast tier (docs/launcher.md, "The main job"): its mixed batch's sizes


def read_cpu_times() -> tuple:
    """(steal, total) jiffies of all CPUs since boot (/proc/stat)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return fields[7] if len(fields) > 7 else 0, sum(fields[:8])


def timed_run(argv: list, cwd: Path, log: Path) -> dict:
    """Runs argv, its output into `log`; wall time, load average before, steal during, and how it ended."""
    load = os.getloadavg()[0]
    steal_before, total_before = read_cpu_times()
    started = time.perf_counter()
    with log.open("w") as out:
        done = subprocess.run([str(a) for a in argv], cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    wall = time.perf_counter() - started
    steal_after, total_after = read_cpu_times()
    ticks = total_after - total_before
    result = {"wall_s": wall, "load_before": load,
              "steal_pct": 100.0 * (steal_after - steal_before) / ticks if ticks > 0 else 0.0,
              "ok": done.returncode == 0, "log": str(log)}
    if done.returncode != 0:
        lines = log.read_text(errors="replace").strip().splitlines() or ["(no output)"]
        result["error"] = f"exit {done.returncode}: {lines[-1]}"
    return result


class Runner:
    """Runs one batch's ways; keeps the preparing run's warm cache and journal durations."""

    def __init__(self, args, batch: Batch, folder: Path, pus: list):
        self.args, self.batch, self.folder, self.pus = args, batch, folder, pus
        self.cosched = args.bin / "cosched"
        self.stream_bench = StreamBench(args.bin / "stream_bench", args.naive_memory)
        self.warm_cache = folder / "cache-warm"
        self.profiled_cache = folder / "cache-profiled"
        self.profiled_preparation = None
        self.durations = {}

    def cosched_argv(self, cache: Path, output: Path) -> list:
        # --quick checks the script: one timed run per profiled point instead of cosched's default 2
        return [self.cosched, "run", self.batch.path, "--cache", cache, "--output", output,
                *(["--reps", "1"] if self.args.quick else [])]

    def report(self, journal: Path) -> dict:
        done = subprocess.run([str(self.cosched), "report", str(journal), "--json"], capture_output=True, text=True)
        if done.returncode != 0:
            raise BenchError(f"cosched report {journal}: {done.stderr.strip()}")
        return json.loads(done.stdout)

    def prepare(self) -> dict:
        """A run with an empty cache of the benchmark's own, before the rounds: it fills the warm cache, and its
        journal's durations order longest-first."""
        folder = self.folder / "prepare"
        result = timed_run(self.cosched_argv(self.warm_cache, folder), self.batch.cwd, self.folder / "prepare.log")
        if not result["ok"]:
            raise BenchError(f"{self.batch.name}: preparing run failed ({result['error']}; {result['log']})")
        self.learn(folder / "journal.jsonl")
        result.update(summary(self.report(folder / "journal.jsonl")))
        return result

    def learn(self, journal: Path) -> None:
        """Each task's observed duration in `journal`: longest-first's order."""
        self.durations = {t["task"]: t["observed_end"] - t["observed_start"] for t in self.report(journal)["tasks"]}

    def profile_everything(self) -> dict:
        """The profiled cache, once: the warm cache copied, then every kind profiled at every core count."""
        shutil.copytree(self.warm_cache, self.profiled_cache)
        folder = self.folder / "prepare-profiled"
        argv = [*self.cosched_argv(self.profiled_cache, folder), "--profile-strategy", "exhaustive",
                "--profile-budget", "1e6"]
        result = timed_run(argv, self.batch.cwd, self.folder / "prepare-profiled.log")
        if not result["ok"]:
            raise BenchError(f"{self.batch.name}: profiling every kind failed ({result['error']}; {result['log']})")
        return result

    def node_only_cache(self, cache: Path) -> None:
        """A cache holding this node's model and nothing else: the warm cache's node folder (its name is the node's
        fingerprint), with a model calibrated once (`cosched calibrate --quick`) into the benchmark's folder."""
        folders = sorted(p for p in self.warm_cache.iterdir() if p.is_dir())
        if len(folders) != 1:
            raise BenchError(f"{self.warm_cache}: expected one node folder, found {len(folders)}")
        model = self.folder / "node.toml"
        if not model.exists():
            done = subprocess.run([str(self.cosched), "calibrate", "--quick", "-o", str(model)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise BenchError(f"cosched calibrate --quick: {done.stderr.strip()}")
        (cache / folders[0].name).mkdir(parents=True)
        shutil.copy2(model, cache / folders[0].name / "node.toml")

    def new_kind_cache(self, cache: Path) -> None:
        """The warm cache copied into `cache`, less the knowledge of the batch's longest task's kind (a command's
        argv with its program's path resolved, or a STREAM kernel at its footprint, as the store's files say)."""
        shutil.copytree(self.warm_cache, cache)
        longest = max(self.batch.tasks, key=lambda task: self.durations.get(task.id, 0.0))

        def same_kind(stored: dict) -> bool:
            if longest.kernel is not None:
                return stored.get("kernel") == longest.kernel and stored.get("footprint_bytes") == longest.footprint_bytes
            command = stored.get("command") or []
            return (len(command) == len(longest.command) and command[1:] == longest.command[1:]
                    and Path(command[0]).name == Path(longest.command[0]).name)

        forgotten = [path for path in cache.glob("*/knowledge/*.json")
                     if same_kind(json.loads(path.read_text()).get("task", {}))]
        if not forgotten:
            raise BenchError(f"{self.batch.name}: no knowledge of {longest.id}'s kind in {self.warm_cache}")
        for path in forgotten:
            path.unlink()

    def plan_way(self, way: str, run_folder: Path) -> tuple:
        """(argv, what to read afterwards) of one run of `way` in a fresh folder."""
        if way in WAYS_COSCHED:
            cache = {"cosched-cached": self.warm_cache, "cosched-profiled": self.profiled_cache}.get(
                way, run_folder / "cache")
            if way == "cosched-profiled" and not self.args.dry_run and not self.profiled_cache.exists():
                self.profiled_preparation = self.profile_everything()
            if way == "cosched-node" and not self.args.dry_run:
                self.node_only_cache(cache)
            if way == "cosched-new-kind" and not self.args.dry_run:
                self.new_kind_cache(cache)
            return self.cosched_argv(cache, run_folder / "run"), run_folder / "run" / "journal.jsonl"
        script = write_naive_way(way, self.batch, run_folder, self.pus, self.stream_bench, self.durations)
        return ["sh", script], None

    def run_way(self, way: str, round_number: int) -> dict:
        run_folder = self.folder / f"round{round_number}" / way
        run_folder.mkdir(parents=True)
        argv, journal = self.plan_way(way, run_folder)
        result = {"batch": self.batch.name, "round": round_number, "way": way,
                  "command": " ".join(shlex.quote(str(a)) for a in argv)}
        result.update(timed_run(argv, self.batch.cwd, run_folder / "output.log"))
        if journal is not None and result["ok"]:
            result.update(summary(self.report(journal)))
            result["profiles"] = profiles_line(Path(result["log"]))
            if way == "cosched-empty" and not self.durations:
                # The first empty-cache run is the preparation: its cache is the warm one from now on.
                self.warm_cache = run_folder / "cache"
                self.learn(journal)
        return result


def source_version(bin_dir: Path) -> dict:
    """What was measured: `cosched --version` and the repository's commit (with "+changes" when the tree differs)."""
    def output(argv):
        done = subprocess.run(argv, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else None
    commit = output(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"])
    if commit and output(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"]):
        commit += "+changes"
    return {"cosched": output([str(bin_dir / "cosched"), "--version"]), "commit": commit}


def summary(report: dict) -> dict:
    """The batch's makespans from a journal's report, the 80 % interval its prediction stated and whether the batch
    fell inside it (None when no interval was stated), and the seconds the launcher spent warming the plan's memory
    before the batch (docs/launcher.md; None when it did not)."""
    result = {key: report[key] for key in ("observed_makespan", "predicted_makespan", "predicted_makespan_contention")}
    interval = report.get("predicted_interval") or {}
    result["interval_low_s"] = interval.get("low_s")
    result["interval_high_s"] = interval.get("high_s")
    result["inside"] = report.get("inside_interval")
    result["memory_warm_up_s"] = (report.get("memory_warm_up") or {}).get("seconds")
    return result


def profiles_line(log: Path) -> str:
    """What `cosched run` knew and measured: its "knowing: ..." line, and its "profiled ..." line when it measured."""
    lines = [line for line in log.read_text(errors="replace").splitlines()
             if line.startswith("knowing:") or line.startswith("profiled ")]
    return " | ".join(line.split("; planned on what is known")[0] for line in lines)


def resolve_batches(args, output: Path) -> list:
    """The batches asked for, each with the folder its ways run in."""
    batches = []
    for name in args.batch:
        folder = output / Path(name).stem if name not in NAMED_BATCHES else output / name
        work = folder / "work"
        work.mkdir(parents=True, exist_ok=True)
        if name == "demo-mixed":
            path = work / "demo-mixed-commands.json"
            path.write_text(json.dumps(mixed_as_commands(NAMED_BATCHES[name], DEMO_FAST_MIB,
                                                         StreamBench(args.bin / "stream_bench")), indent=1) + "\n")
        else:
            path = NAMED_BATCHES.get(name, Path(name)).resolve()
            if not path.is_file():
                raise BenchError(f"--batch {name}: no such batch name ({', '.join(NAMED_BATCHES)}) or file")
        try:
            batch = load_batch(path)
        except (BatchError, KeyError, ValueError) as failure:
            raise BenchError(f"{path}: {failure}") from failure
        batch.cwd = work if name in NAMED_BATCHES else Path.cwd()
        if name in WITH_INPUTS:
            if not args.dry_run:
                try:
                    check_programs(batch)
                except RuntimeError as missing:
                    raise BenchError(str(missing)) from missing
                made = make_inputs(work / "inputs", args.input_scale)
                print(f"{name}: inputs in {work / 'inputs'} ({made})", flush=True)
        batches.append((batch, folder))
    return batches


def spread(values: list) -> dict:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)} if values else None


def best_naive_way(runs: list, batch: str):
    """The naive way with the lowest median wall time over the rounds of `batch` (None when none ran)."""
    walls = {}
    for run in runs:
        if run["batch"] == batch and run["way"] in WAYS_NAIVE and run["ok"]:
            walls.setdefault(run["way"], []).append(run["wall_s"])
    return min(walls, key=lambda way: statistics.median(walls[way])) if walls else None


def add_ratios(runs: list) -> None:
    """Each run's wall time over its round's fastest naive way (`ratio_to_best_naive`), and over the same round's
    run of the naive way fastest by median (`ratio_to_best_way`). The first takes the least of several noisy times
    each round, so a way as fast as a naive one comes out above 1 by about the noise; the second does not select on
    the noise."""
    best, walls = {}, {}
    for run in runs:
        if run["way"] in WAYS_NAIVE and run["ok"]:
            key = (run["batch"], run["round"])
            best[key] = min(best.get(key, float("inf")), run["wall_s"])
            walls[(run["batch"], run["round"], run["way"])] = run["wall_s"]
    best_ways = {batch: best_naive_way(runs, batch) for batch in {run["batch"] for run in runs}}
    for run in runs:
        base = best.get((run["batch"], run["round"]))
        run["ratio_to_best_naive"] = run["wall_s"] / base if base and run["ok"] else None
        way_base = walls.get((run["batch"], run["round"], best_ways[run["batch"]]))
        run["ratio_to_best_way"] = run["wall_s"] / way_base if way_base and run["ok"] else None


def table(runs: list, batches: list, ways: list) -> dict:
    """Prints the table; returns the summary per batch and way."""
    result = {}
    for batch, _ in batches:
        mine = [r for r in runs if r["batch"] == batch.name]
        rounds = sorted({r["round"] for r in mine})
        best_ways = []
        for number in rounds:
            naive = [r for r in mine if r["round"] == number and r["way"] in WAYS_NAIVE and r["ok"]]
            best_ways.append(min(naive, key=lambda r: r["wall_s"])["way"] if naive else "-")
        best_way = best_naive_way(runs, batch.name)
        print(f"\n{batch.name}: {len(batch.tasks)} tasks, {len(rounds)} round(s); best naive way per round: "
              f"{', '.join(best_ways)}; by median: {best_way or '-'}")
        print(f"{'way':16s} | {'wall s: min':>11s} {'median':>7s} {'max':>7s} | {'/ best naive: min':>17s} "
              f"{'median':>6s} {'max':>6s} | {'/ ' + (best_way or '-'):>14s} | {'batch predicted':>15s} "
              f"{'80 % interval':>15s} {'observed':>8s} {'inside':>6s} | {'load':>4s} {'steal':>5s}")
        result[batch.name] = {}
        for way in ways:
            of_way = [r for r in mine if r["way"] == way]
            ok = [r for r in of_way if r["ok"]]
            entry = {"runs": len(of_way), "failed": len(of_way) - len(ok),
                     "wall_s": spread([r["wall_s"] for r in ok]),
                     "ratio_to_best_naive": spread([r["ratio_to_best_naive"] for r in ok
                                                    if r["ratio_to_best_naive"] is not None]),
                     "ratio_to_best_way": spread([r["ratio_to_best_way"] for r in ok
                                                  if r.get("ratio_to_best_way") is not None]),
                     "load_before": spread([r["load_before"] for r in of_way]),
                     "steal_pct": spread([r["steal_pct"] for r in of_way])}
            if way in WAYS_COSCHED:
                for key in ("predicted_makespan_contention", "predicted_makespan", "observed_makespan",
                            "interval_low_s", "interval_high_s"):
                    entry[key] = spread([r[key] for r in ok if r.get(key) is not None])
                stated = [r["inside"] for r in ok if r.get("inside") is not None]
                entry["interval_held"] = {"stated": len(stated), "inside": sum(stated)}
            result[batch.name][way] = entry
            wall, ratio = entry["wall_s"], entry["ratio_to_best_naive"]
            if not wall:
                print(f"{way:16s} | {'all ' + str(len(of_way)) + ' run(s) failed':>27s}")
                continue
            cells = f"{wall['min']:11.2f} {wall['median']:7.2f} {wall['max']:7.2f} | "
            cells += (f"{ratio['min']:17.2f} {ratio['median']:6.2f} {ratio['max']:6.2f} | " if ratio
                      else f"{'n/a':>31s} | ")
            to_way = entry["ratio_to_best_way"]
            cells += f"{to_way['median']:14.2f} | " if to_way else f"{'n/a':>14s} | "
            predicted = entry.get("predicted_makespan_contention") or entry.get("predicted_makespan")
            observed = entry.get("observed_makespan")
            low, high = entry.get("interval_low_s"), entry.get("interval_high_s")
            held = entry.get("interval_held") or {"stated": 0}
            interval = f"{low['median']:.2f} .. {high['median']:.2f}" if low and high else ""
            inside = f"{held['inside']}/{held['stated']}" if held["stated"] else ""
            cells += (f"{predicted['median']:15.2f} {interval:>15s} {observed['median']:8.2f} {inside:>6s} | "
                      if predicted and observed else f"{'':15s} {'':15s} {'':8s} {'':6s} | ")
            cells += f"{entry['load_before']['median']:4.1f} {entry['steal_pct']['max']:5.1f}"
            failed = f"  ({entry['failed']} failed)" if entry["failed"] else ""
            print(f"{way:16s} | {cells}{failed}")
    print("\nwall s: the whole command; / best naive: each round's time over that round's fastest way without "
          "cosched; / <way>: the median of each round's time over that round's run of the naive way fastest by "
          "median (not chosen on each round's noise); batch predicted / 80 % interval / observed: cosched's "
          "prediction of the batch (contention-aware where it has a node model), the interval it stated (a wide one "
          "says much was guessed) and the batch's own time (medians); inside: runs whose batch fell inside its "
          "interval / runs that stated one; load: 1-min load average before a run (median); steal: CPU steal % during "
          "a run (max)")
    return result


def plot(summary_by_batch: dict, ways: list, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    names = list(summary_by_batch)
    figure, axes = plt.subplots(figsize=(2 + 1.2 * len(ways) * len(names) / 2, 4))
    width = 0.8 / len(ways)
    for k, way in enumerate(ways):
        xs, medians, lows, highs = [], [], [], []
        for b, name in enumerate(names):
            ratio = summary_by_batch[name][way]["ratio_to_best_naive"]
            if ratio:
                xs.append(b + (k - (len(ways) - 1) / 2) * width)
                medians.append(ratio["median"])
                lows.append(ratio["median"] - ratio["min"])
                highs.append(ratio["max"] - ratio["median"])
        axes.bar(xs, medians, width, yerr=[lows, highs], label=way, capsize=2)
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_xticks(range(len(names)), names)
    axes.set_ylabel("wall time / best naive way (median, min-max)")
    axes.set_yscale("log")
    axes.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    axes.yaxis.set_minor_formatter(matplotlib.ticker.ScalarFormatter())
    axes.legend(fontsize=7, ncol=2)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    print(f"wrote {path}")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=Path, default=ROOT / "build" / "bin", help="folder of cosched and stream_bench")
    parser.add_argument("--output", type=Path, default=None, help="output folder (default batch-vs-naive-<UTC time>)")
    parser.add_argument("--batch", default="debian,readme,demo-mixed",
                        help=f"comma-separated batch names ({', '.join(NAMED_BATCHES)}) or files (default: debian, "
                             "readme, demo-mixed)")
    parser.add_argument("--ways", default=",".join(WAYS_DEFAULT),
                        help=f"comma-separated ways of {','.join(WAYS)} (default {','.join(WAYS_DEFAULT)})")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every way (default 3)")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds before each run (default 2)")
    parser.add_argument("--input-scale", type=float, default=1.0,
                        help="the debian batch's input sizes times this (default 1)")
    parser.add_argument("--naive-memory", choices=("node", "plain"), default="node",
                        help="the memory the naive ways' STREAM tasks get: node (default: what a process gets "
                             "without asking, the slow tier where cosched emulates one) or plain (stream_bench's "
                             "default, as fast as the emulated fast tier)")
    parser.add_argument("--plot", type=Path, default=None, help="draw the ratios into this PNG (matplotlib)")
    parser.add_argument("--quick", action="store_true",
                        help="check the script: 1 round, no pause, the debian batch with inputs 1/32 the size")
    parser.add_argument("--dry-run", action="store_true",
                        help="write every way's command lines for every batch and print them; run nothing")
    args = parser.parse_args()
    if args.rounds < 1 or not args.pause >= 0 or not args.input_scale > 0:
        parser.error("--rounds must be >= 1, --pause >= 0, --input-scale > 0")
    if args.quick:
        args.rounds, args.pause, args.input_scale = 1, 0.0, args.input_scale / 32
        if args.batch == parser.get_default("batch"):
            args.batch = "debian"
    args.batch = [name for name in args.batch.split(",") if name]
    args.ways = [way for way in args.ways.split(",") if way]
    if not args.batch or not args.ways or any(way not in WAYS for way in args.ways):
        parser.error(f"--batch needs a batch; --ways: a comma-separated list of {', '.join(WAYS)}")
    args.naive_memory = naive_memory(args.bin / "cosched") if args.naive_memory == "node" else ()
    args.output = (args.output or stamped_folder("batch-vs-naive")).resolve()
    args.bin = args.bin.resolve()
    return args


def naive_memory(cosched: Path) -> tuple:
    """stream_bench's memory arguments for a naive STREAM task on this node: the emulated slow tier when cosched's
    tier backend here is the emulated one (`cosched topo --json`), else none (the OS's default memory, which on a
    flat-mode node is the slow tier already)."""
    if not cosched.is_file():
        return ()  # main() says the program is missing
    done = subprocess.run([str(cosched), "topo", "--json"], capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"cosched topo --json: {done.stderr.strip()}")
    return EMULATED_SLOW_MEMORY if json.loads(done.stdout).get("tier_backend") == "emulated" else ()


def check_shell(argv: list, what: str) -> None:
    """sh -n: the shell reads the way's lines without a syntax error."""
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"{what}: sh cannot read it: {done.stderr.strip()}")


def dry_run(args, batches: list) -> int:
    for batch, folder in batches:
        runner = Runner(args, batch, folder, sorted(os.sched_getaffinity(0)))
        print(f"\n{batch.name} ({batch.path}): {len(batch.tasks)} tasks; ways run in {batch.cwd}")
        for way in args.ways:
            run_folder = folder / "dry-run" / way
            run_folder.mkdir(parents=True, exist_ok=True)
            argv, _ = runner.plan_way(way, run_folder)
            print(f"-- {way}: {' '.join(shlex.quote(str(a)) for a in argv)}")
            if way in WAYS_NAIVE:
                print(Path(argv[1]).read_text(), end="")
                check_shell(["sh", "-n", argv[1]], f"{batch.name}, {way}: {argv[1]}")
                if (run_folder / "commands").exists():
                    for line in (run_folder / "commands").read_text().split("\0")[:-1]:
                        print(f"   {line}")
                        check_shell(["sh", "-n", "-c", line], f"{batch.name}, {way}: the xargs command {line!r}")
    print(f"\ndry run: nothing was run; the scripts are in {args.output}")
    return 0


def main() -> int:
    args = parse_arguments()
    args.output.mkdir(parents=True, exist_ok=True)
    batches = resolve_batches(args, args.output)
    if args.dry_run:
        return dry_run(args, batches)
    for program in ("cosched", "stream_bench"):
        if not (args.bin / program).is_file():
            raise BenchError(f"{args.bin / program} is missing: build the targets cosched and stream_bench (or "
                             f"pass --bin)")
    pus = sorted(os.sched_getaffinity(0))
    started, load_start = time.time(), os.getloadavg()
    print(f"batch vs naive: {', '.join(b.name for b, _ in batches)}; ways {', '.join(args.ways)}; {args.rounds} "
          f"round(s), {args.pause:g} s pause; {len(pus)} cores; load average {load_start[0]:.2f}; naive STREAM "
          f"tasks' memory: {' '.join(args.naive_memory) or 'plain'}; output {args.output}", flush=True)
    runs, preparations = [], {}
    for batch, folder in batches:
        runner = Runner(args, batch, folder, pus)
        # Ways that need a previous run (a warm cache, known durations) get one before the rounds, unless round 1
        # starts with cosched-empty: that run is then the previous run of the ways after it.
        if set(args.ways) & WAYS_AFTER_A_RUN and args.ways[0] != "cosched-empty":
            preparations[batch.name] = runner.prepare()
            p = preparations[batch.name]
            print(f"{batch.name}: prepared (cosched run, empty cache) in {p['wall_s']:.1f} s, batch observed "
                  f"{p['observed_makespan']:.2f} s", flush=True)
        for number in range(1, args.rounds + 1):
            shift = (number - 1) % len(args.ways)
            for way in args.ways[shift:] + args.ways[:shift]:
                if args.pause > 0:
                    time.sleep(args.pause)
                run = runner.run_way(way, number)
                runs.append(run)
                status = f"{run['wall_s']:.2f} s" if run["ok"] else f"FAILED ({run['error']}; {run['log']})"
                print(f"{batch.name} round {number}/{args.rounds} {way:14s}: {status} (load {run['load_before']:.2f}, "
                      f"steal {run['steal_pct']:.1f} %)", flush=True)
        if runner.profiled_preparation is not None:
            preparations[batch.name + " (every kind profiled)"] = runner.profiled_preparation
    add_ratios(runs)
    summary_by_batch = table(runs, batches, args.ways)
    load_end = os.getloadavg()
    print(f"\n{time.time() - started:.0f} s; load average {load_start[0]:.2f} at the start, {load_end[0]:.2f} at the "
          f"end (1 min) on {len(pus)} cores")
    document = {"benchmark": "bench/batch_vs_naive.py", "date_utc": datetime.datetime.utcnow().isoformat() + "Z",
                "host": socket.gethostname(), "source": source_version(args.bin),
                "cores": len(pus), "rounds": args.rounds, "pause_s": args.pause,
                "input_scale": args.input_scale, "ways": args.ways, "naive_memory": list(args.naive_memory),
                "batches": {b.name: {"path": str(b.path), "tasks": len(b.tasks)} for b, _ in batches},
                "load_average": {"start": load_start, "end": load_end}, "preparations": preparations,
                "summary": summary_by_batch, "runs": runs}
    # Paths relative to the output folder and the repository: the file can be kept in bench/results/.
    text = json.dumps(document, indent=1).replace(str(args.output) + "/", "").replace(str(ROOT) + "/", "")
    (args.output / "batch_vs_naive.json").write_text(text + "\n")
    print(f"wrote {args.output / 'batch_vs_naive.json'}")
    if args.plot:
        plot(summary_by_batch, args.ways, args.plot)
    return 1 if any(not run["ok"] for run in runs) else 0


if __name__ == "__main__":
    run_main(main, "batch_vs_naive")
