#!/usr/bin/python3
"""Unseen-batch prediction (issue 24): a batch whose passes and footprints the profile did not see, predicted how well?

The batch (written to the output folder as unseen.toml): triad and copy tasks of 128 MiB at 40 and 5 passes. The
profile sees triad and copy at 64 and 256 MiB, timed at 1 and 20 passes — so 128 MiB is interpolated and 40 and 5
passes come from the fixed cost plus passes x the cost of a pass. Each run takes the batch through

  (a) the README's chain, as its table shows it (README.md, "What is in the box"): `cosched calibrate --quick`,
      `cosched profile --measurer process --passes 1,20 ...`, `cosched instance ... --node`, `cosched plan`,
      `cosched launch` of the schedule alone (no --instance: the schedule carries the bandwidth model), `cosched
      report`; every run does the whole chain;
  (b) `cosched run` with a cache of the benchmark's own (the first run calibrates and profiles what the cache lacks,
      the next ones reuse it, as a user's later runs do).

`cosched demo --workload` is not a path here: it takes commands only (STREAM tasks are refused) and profiles each
command as launched, with its own passes, so it never predicts passes it did not see (docs/launcher.md).

Per run and over the runs (default 3, a pause between) it reports, for each path and each model (paper,
contention-aware), the batch's |observed / predicted - 1| and the median over the tasks of each task's
|observed duration / predicted duration - 1|.

    bench/unseen_batch.py                        # 3 runs, 3 reps per profiled point, 30 s between runs
    bench/unseen_batch.py --quick                # checks the script: 1 run, 1 rep, a smaller batch

Measures, never asserts: stdout and unseen_batch.json in the output folder (docs/fidelity.md, "Unseen batch").
Python 3 standard library only.
"""

import argparse
import datetime
import json
import os
import socket
import statistics
import time
from pathlib import Path

from corun_fidelity import BenchError, Cosched, closing_line, run_main, stamped_folder

ROOT = Path(__file__).resolve().parent.parent
PLATFORM = ROOT / "configs" / "platforms" / "local.toml"
PATHS = ("chain", "run")


def write_batch(path: Path, quick: bool) -> None:
    count = 1 if quick else 2
    groups = [("triad", 40), ("triad", 5), ("copy", 40), ("copy", 5)]
    text = ('name = "unseen"\ndescription = "triad and copy at 128 MiB, 40 and 5 passes: footprint and passes the '
            'profile (64 and 256 MiB, 1 and 20 passes) did not see"\n')
    for kernel, passes in groups:
        text += f'\n[[tasks]]\nkernel = "{kernel}"\nfootprint_mib = 128\ncount = {count}\npasses = {passes}\n'
    path.write_text(text)


def chain(cosched, folder: Path, batch: Path, args) -> Path:
    """(a): the README table's rows with this benchmark's batch and kernels; returns the journal."""
    folder.mkdir(parents=True, exist_ok=True)
    cosched("calibrate", "--quick", "--output", "node.toml", "--quiet", cwd=folder)
    cosched("profile", "--measurer", "process", "--passes", "1,20", "--kernels", "triad,copy", "--footprints-mib",
            "64,256", "--cores", "1,2", "--chunks", "0,20", "--reps", args.reps, "--platform", PLATFORM, "-o",
            "prof.csv", "--quiet", cwd=folder)
    cosched("instance", "--workload", batch, "--profiles", "prof.csv", "--platform", PLATFORM, "--node", "node.toml",
            "-o", "inst.json", cwd=folder)
    cosched("plan", "--instance", "inst.json", "--algorithm", args.algorithm, "--output", "s.json", cwd=folder)
    cosched("launch", "s.json", "--workload", batch, "--platform", PLATFORM, "--journal", "run.jsonl", cwd=folder)
    return folder / "run.jsonl"


def run_command(cosched, folder: Path, batch: Path, cache: Path, args) -> Path:
    """(b): `cosched run` with the benchmark's cache; returns the journal."""
    cosched("run", batch, "--cache", cache, "--platform", PLATFORM, "--reps", args.reps, "--algorithm", args.algorithm,
            "--output", folder, "--force")
    return folder / "journal.jsonl"


def abs_error(observed: float, predicted) -> float:
    return abs(observed / predicted - 1) if predicted else None


def read_report(cosched, journal: Path) -> dict:
    report = json.loads(cosched("report", journal, "--json"))
    if report["tasks_failed"]:
        raise BenchError(f"{journal}: {report['tasks_failed']} task(s) failed")
    per_task = {"paper": [], "contention": []}
    for task in report["tasks"]:
        observed = task["observed_end"] - task["observed_start"]
        per_task["paper"].append(abs_error(observed, task["planned_end"] - task["planned_start"]))
        if task["predicted_contention_end"] is not None:
            per_task["contention"].append(
                abs_error(observed, task["predicted_contention_end"] - task["predicted_contention_start"]))
    return {
        "journal": str(journal), "algorithm": report["algorithm"], "observed_makespan": report["observed_makespan"],
        "predicted_makespan": report["predicted_makespan"],
        "predicted_makespan_contention": report["predicted_makespan_contention"],
        "batch_abs_error": {"paper": abs_error(report["observed_makespan"], report["predicted_makespan"]),
                            "contention": abs_error(report["observed_makespan"],
                                                    report["predicted_makespan_contention"])},
        "task_median_abs_error": {model: statistics.median([e for e in errors if e is not None])
                                  if any(e is not None for e in errors) else None
                                  for model, errors in per_task.items()},
    }


def pct(value) -> str:
    return "n/a" if value is None else f"{value * 100:6.1f} %"


def print_summary(runs: list) -> dict:
    summary = {}
    print(f"\n{'path':6s} {'run':>3s} | {'observed':>9s} {'pred paper':>10s} {'pred cont':>10s} | "
          f"{'|batch err| paper':>17s} {'contention':>10s} | {'task median |err| paper':>23s} {'contention':>10s}")
    for path in PATHS:
        for number, run in enumerate(runs, 1):
            r = run[path]
            contention = r["predicted_makespan_contention"]
            print(f"{path:6s} {number:3d} | {r['observed_makespan']:8.3f}s {r['predicted_makespan']:9.3f}s "
                  f"{(f'{contention:9.3f}s' if contention is not None else '      n/a'):>10s} | "
                  f"{pct(r['batch_abs_error']['paper']):>17s} {pct(r['batch_abs_error']['contention']):>10s} | "
                  f"{pct(r['task_median_abs_error']['paper']):>23s} "
                  f"{pct(r['task_median_abs_error']['contention']):>10s}")
        summary[path] = {}
        for model in ("paper", "contention"):
            batch = [run[path]["batch_abs_error"][model] for run in runs if run[path]["batch_abs_error"][model] is not None]
            tasks = [run[path]["task_median_abs_error"][model] for run in runs
                     if run[path]["task_median_abs_error"][model] is not None]
            summary[path][model] = {
                "batch_abs_error": {"median": statistics.median(batch), "min": min(batch), "max": max(batch)}
                if batch else None,
                "task_median_abs_error": {"median": statistics.median(tasks), "min": min(tasks), "max": max(tasks)}
                if tasks else None}
            b = summary[path][model]["batch_abs_error"]
            if b:
                print(f"{path:6s} over {len(batch)} run(s), {model:10s}: batch |error| median {pct(b['median'])} "
                      f"(min {pct(b['min'])}, max {pct(b['max'])})")
    return summary


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=Path, default=ROOT / "build" / "bin", help="folder of cosched and stream_bench")
    parser.add_argument("--output", type=Path, default=None, help="output folder (default unseen-batch-<UTC time>)")
    parser.add_argument("--runs", type=int, default=3, help="runs of both paths (default 3)")
    parser.add_argument("--pause", type=float, default=30.0, help="seconds between runs (default 30)")
    parser.add_argument("--reps", type=int, default=3, help="timed runs per profiled point (default 3)")
    parser.add_argument("--algorithm", default="t-pack-ff", help="planner of both paths (default t-pack-ff, the README's)")
    parser.add_argument("--quick", action="store_true", help="check the script: 1 run, 1 rep, one task per group")
    args = parser.parse_args()
    if args.runs < 1 or args.reps < 1 or not args.pause >= 0:
        parser.error("--runs and --reps must be >= 1, --pause >= 0")
    if args.quick:
        args.runs, args.reps, args.pause = 1, 1, 0.0
    args.output = args.output or stamped_folder("unseen-batch")
    return args


def main() -> int:
    args = parse_arguments()
    args.output = args.output.resolve()
    args.output.mkdir(parents=True, exist_ok=True)
    batch = args.output / "unseen.toml"
    write_batch(batch, args.quick)
    cache = args.output / "cache"
    started = time.time()
    load_start = os.getloadavg()
    print(f"unseen batch: {args.runs} run(s) of the README chain and `cosched run` ({args.algorithm}), batch {batch}; "
          f"EMULATED fast tier ({PLATFORM.name}); load average {load_start[0]:.2f}; output {args.output}", flush=True)
    runs = []
    with (args.output / "commands.log").open("w") as log:
        cosched = Cosched(args.bin, log)
        for number in range(1, args.runs + 1):
            if number > 1 and args.pause > 0:
                time.sleep(args.pause)
            run = {"load_average": os.getloadavg()}
            for path in PATHS:
                folder = args.output / f"run{number}-{path}"
                path_started = time.time()
                journal = (chain(cosched, folder, batch, args) if path == "chain"
                           else run_command(cosched, folder, batch, cache, args))
                run[path] = read_report(cosched, journal)
                run[path]["wall_s"] = time.time() - path_started
                contention = run[path]["predicted_makespan_contention"]
                print(f"run {number}/{args.runs} {path:5s}: observed {run[path]['observed_makespan']:.3f} s, "
                      f"predicted {run[path]['predicted_makespan']:.3f} s (paper), "
                      f"{'n/a' if contention is None else f'{contention:.3f} s'} (contention-aware); "
                      f"{run[path]['wall_s']:.0f} s", flush=True)
            runs.append(run)
    summary = print_summary(runs)
    line, load_end = closing_line(started, load_start)
    print("\n" + line)
    document = {"benchmark": "bench/unseen_batch.py", "date_utc": datetime.datetime.utcnow().isoformat() + "Z",
                "host": socket.gethostname(), "platform": str(PLATFORM), "algorithm": args.algorithm,
                "reps": args.reps, "batch": batch.read_text(), "load_average": {"start": load_start, "end": load_end},
                "wall_s": time.time() - started, "summary": summary, "runs": runs}
    (args.output / "unseen_batch.json").write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {args.output / 'unseen_batch.json'}")
    return 0


if __name__ == "__main__":
    run_main(main, "unseen_batch")
