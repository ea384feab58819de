#!/usr/bin/python3
"""How often the batch falls inside its 80 % interval (issue 39, item 3): `cosched run` on many different batches,
one cache that learns as it goes (as a user's does), and for each run the predicted makespan with its 80 %
interval (the "prediction" result of `--progress json`) against the batch's observed makespan (`cosched report
--json` of the run's journal).

The batches, in turn: the README's example (configs/workloads/my-batch.json), the demo's mixed batch as commands,
the Debian programs (configs/workloads/debian-programs.json, inputs --input-scale times their size), and batches
drawn at random (--seed) from a pool of commands: those three batches' tasks plus STREAM commands of other kernels,
sizes and passes — 3 to 6 tasks each, some of a kind twice, some kinds never seen before. Every run is a fresh run
folder and the same cache: the first runs learn the node and the kinds (the first of a kind runs at a guessed time),
the later ones are planned on what the earlier ones measured and observed.

    bench/interval_coverage.py                      # 24 runs: the figure of docs/end-to-end.md
    bench/interval_coverage.py --runs 6 --input-scale 0.05   # checks the script in a minute

Prints one line per run and the coverage (observed inside / runs with an interval, over all runs and over the runs
whose plan had no guessed task time), the median |observed / predicted - 1|, and writes interval_coverage.json in
the output folder. Measures, never asserts. Python 3 standard library only.
"""

import argparse
import datetime
import json
import os
import random
import socket
import statistics
import subprocess
import time
from pathlib import Path

from batch_vs_naive import DEMO_FAST_MIB, NAMED_BATCHES, source_version, summary, timed_run
from batch_ways import StreamBench, load_batch, mixed_as_commands, stream_command
from corun_fidelity import BenchError, run_main, stamped_folder
from debian_inputs import check_programs, make_inputs

MIB = 1024 * 1024
NAMED_TURN = ("readme", "demo-mixed", "debian")  # between them, a drawn batch


def read_json_lines(text: str) -> list:
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return lines


class Pool:
    """The commands drawn batches are made of: entries of a JSON batch (with "profile" where the source had one)."""

    def __init__(self, work: Path, stream_bench: StreamBench):
        self.entries = []
        for name in ("readme", "debian"):
            self.entries += json.loads(NAMED_BATCHES[name].read_text())["tasks"]
        self.entries += mixed_as_commands(NAMED_BATCHES["demo-mixed"], DEMO_FAST_MIB, stream_bench)["tasks"]
        for kernel in ("copy", "scale", "add", "triad"):
            for mib in (32, 96):
                for passes in (6, 15):
                    footprint = mib * MIB
                    self.entries.append({"id": f"{kernel}-{mib}-{passes}", "footprint_bytes": footprint,
                                         "command": stream_command(kernel, footprint, passes, "{threads}",
                                                                   stream_bench)})
        self.work = work

    def draw(self, rng: random.Random, number: int) -> Path:
        """A batch of 3 to 6 tasks (a drawn entry twice now and then), written to the work folder."""
        tasks, chosen = [], []
        for _ in range(rng.randint(3, 6)):
            drawn = rng.choice(chosen if chosen and rng.random() < 0.25 else self.entries)
            chosen.append(drawn)
            tasks.append(dict(drawn, id=f"t{len(tasks)}-{drawn['id']}"))
        path = self.work / f"drawn-{number:02d}.json"
        path.write_text(json.dumps({"name": f"drawn-{number:02d}", "tasks": tasks}, indent=1) + "\n")
        return path


def batch_files(args, work: Path) -> dict:
    files = {"readme": NAMED_BATCHES["readme"]}
    demo = work / "demo-mixed-commands.json"
    demo.write_text(json.dumps(mixed_as_commands(NAMED_BATCHES["demo-mixed"], DEMO_FAST_MIB,
                                                 StreamBench(args.bin / "stream_bench")), indent=1) + "\n")
    files["demo-mixed"] = demo
    files["debian"] = NAMED_BATCHES["debian"]
    return files


def one_run(args, batch: Path, number: int) -> dict:
    """`cosched run` of `batch` in a fresh folder with the shared cache; its prediction, interval and observation."""
    folder = args.output / f"run{number:02d}"
    log = args.output / f"run{number:02d}.jsonl"
    argv = [args.bin / "cosched", "run", batch, "--cache", args.cache, "--output", folder, "--progress", "json"]
    result = {"run": number, "batch": batch.stem}
    result.update(timed_run(argv, args.work, log))
    if not result["ok"]:
        return result
    for line in read_json_lines(log.read_text(errors="replace")):
        if line.get("kind") == "prediction" and isinstance(line.get("data"), dict):
            data = line["data"]
            result["guessed_tasks"] = data.get("guessed_tasks", 0)
            result["launches_seen"] = data.get("launches_seen")
            result["co_running_unpredicted_tasks"] = data.get("co_running_unpredicted_tasks", 0)
            result["launch_noise_sigma"] = data.get("launch_noise_sigma")
    done = subprocess.run([str(args.bin / "cosched"), "report", str(folder / "journal.jsonl"), "--json"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"cosched report {folder / 'journal.jsonl'}: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    result.update(summary(report))
    result["tasks"] = len(report["tasks"])
    predicted = result.get("predicted_makespan_contention") or result.get("predicted_makespan")
    result["predicted_s"] = predicted
    if predicted:
        result["relative_error"] = result["observed_makespan"] / predicted - 1.0
    return result


def coverage(runs: list) -> dict:
    stated = [r for r in runs if r.get("inside") is not None]
    errors = [abs(r["relative_error"]) for r in runs if "relative_error" in r]
    below = sum(1 for r in stated if r["observed_makespan"] < r["interval_low_s"])
    return {"runs": len(stated), "inside": sum(1 for r in stated if r["inside"]),
            "rate": sum(1 for r in stated if r["inside"]) / len(stated) if stated else None,
            "below": below, "above": len(stated) - below - sum(1 for r in stated if r["inside"]),
            "median_abs_error": statistics.median(errors) if errors else None}


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=Path, default=Path(__file__).resolve().parent.parent / "build" / "bin",
                        help="folder of cosched and stream_bench")
    parser.add_argument("--output", type=Path, default=None,
                        help="output folder (default interval-coverage-<UTC time>)")
    parser.add_argument("--runs", type=int, default=24, help="runs of cosched run (default 24)")
    parser.add_argument("--seed", type=int, default=39, help="the drawn batches' seed (default 39)")
    parser.add_argument("--input-scale", type=float, default=0.25,
                        help="the Debian programs' input sizes times this (default 0.25: about a second each)")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds before each run (default 1)")
    args = parser.parse_args()
    if args.runs < 1 or not args.input_scale > 0 or not args.pause >= 0:
        parser.error("--runs must be >= 1, --input-scale > 0, --pause >= 0")
    args.output = (args.output or stamped_folder("interval-coverage")).resolve()
    args.bin = args.bin.resolve()
    args.work = args.output / "work"
    args.cache = args.output / "cache"
    return args


def main() -> int:
    args = parse_arguments()
    for program in ("cosched", "stream_bench"):
        if not (args.bin / program).is_file():
            raise BenchError(f"{args.bin / program} is missing: build the targets cosched and stream_bench (or --bin)")
    args.work.mkdir(parents=True, exist_ok=True)
    files = batch_files(args, args.work)
    try:
        check_programs(load_batch(files["debian"]))
    except RuntimeError as missing:
        raise BenchError(str(missing)) from missing
    print(f"inputs: {make_inputs(args.work / 'inputs', args.input_scale)}", flush=True)
    pool, rng = Pool(args.work, StreamBench(args.bin / "stream_bench")), random.Random(args.seed)
    started, load_start = time.time(), os.getloadavg()
    print(f"interval coverage: {args.runs} runs, cache {args.cache}, load average {load_start[0]:.2f}", flush=True)
    runs = []
    for number in range(1, args.runs + 1):
        # Named batches and drawn ones in turn: readme, drawn, demo-mixed, drawn, debian, drawn, ...
        batch = files[NAMED_TURN[(number // 2) % len(NAMED_TURN)]] if number % 2 == 1 else pool.draw(rng, number)
        if args.pause > 0:
            time.sleep(args.pause)
        run = one_run(args, batch, number)
        runs.append(run)
        if not run["ok"]:
            print(f"run {number:2d} {batch.stem:22s}: FAILED ({run['error']}; {run['log']})", flush=True)
        elif run.get("inside") is None:
            print(f"run {number:2d} {batch.stem:22s}: no interval stated ({run['log']})", flush=True)
        else:
            print(f"run {number:2d} {batch.stem:22s}: predicted {run['predicted_s']:6.2f} s, 80 % "
                  f"[{run['interval_low_s']:6.2f}, {run['interval_high_s']:6.2f}], observed "
                  f"{run['observed_makespan']:6.2f} s: {'inside' if run['inside'] else 'OUTSIDE'} "
                  f"(guessed tasks {run['guessed_tasks']}, timed alone {run.get('co_running_unpredicted_tasks', 0)}, "
                  f"load {run['load_before']:.2f})", flush=True)
    overall = coverage(runs)
    measured = coverage([r for r in runs if r.get("guessed_tasks") == 0])
    load_end = os.getloadavg()
    for name, figures in (("all runs", overall), ("no guessed task", measured)):
        if figures["runs"]:
            print(f"{name}: {figures['inside']}/{figures['runs']} inside the 80 % interval "
                  f"({100 * figures['rate']:.0f} %; {figures['below']} below, {figures['above']} above); median "
                  f"|observed / predicted - 1| {100 * figures['median_abs_error']:.1f} %")
    print(f"{time.time() - started:.0f} s; load average {load_start[0]:.2f} at the start, {load_end[0]:.2f} at the end")
    document = {"benchmark": "bench/interval_coverage.py", "date_utc": datetime.datetime.utcnow().isoformat() + "Z",
                "host": socket.gethostname(), "source": source_version(args.bin), "runs_asked": args.runs,
                "seed": args.seed, "input_scale": args.input_scale,
                "load_average": {"start": load_start, "end": load_end},
                "coverage": {"all": overall, "no_guessed_task": measured}, "runs": runs}
    (args.output / "interval_coverage.json").write_text(
        json.dumps(document, indent=1).replace(str(args.output) + "/", "") + "\n")
    print(f"wrote {args.output / 'interval_coverage.json'}")
    return 1 if any(not run["ok"] for run in runs) else 0


if __name__ == "__main__":
    run_main(main, "interval_coverage")
