#!/usr/bin/python3
"""Unseen-batch prediction (issue 24): a batch whose passes and footprints the profile did not see, predicted how well?

The batch: triad and copy tasks of 128 MiB at 40 and 5 passes (x K with --passes-scale K), written to the output
folder twice — as the workload TOML of kernels (unseen.toml) and as a JSON workload of the same work written as
commands (unseen-commands.json: `stream_bench --kernel K --threads {threads} --size-mib <footprint / arrays> --reps
<passes> --warmup 0 --json`, the argv the launcher gives a STREAM task, with its footprint_bytes). It is not the
demo's batch (write, ddot and triad at 96 and 288 MiB). Each run takes it through

  (a) the README's chain, as its table shows it (README.md, "What is in the box"): `cosched calibrate --quick`,
      `cosched profile --measurer process --passes 1,20 ...` at 64 and 256 MiB, `cosched instance ... --node`,
      `cosched plan`, `cosched launch` of the schedule alone (no --instance: the schedule carries the bandwidth
      model), `cosched report`; every run does the whole chain. 128 MiB is interpolated and the passes come from
      the fixed cost plus passes x the cost of a pass: neither was profiled;
  (b) `cosched run` with a cache of the benchmark's own (the first run calibrates and profiles what the cache lacks,
      the next ones reuse it, as a user's later runs do). The cache profiles each kernel at the batch's own
      footprint, at 1 pass and the kind's largest passes (40 K): there only the 5 K-pass tasks are unseen;
  (c) `cosched demo --workload` on the command batch (docs/launcher.md): it profiles each distinct command as
      launched (cores only on an emulated tier, which cannot place a command's memory), plans it with every
      algorithm and launches every plan. Its profile is of the commands themselves, so it sees their passes and
      footprints; what it predicts that it did not see is the co-running and the plans. Per plan, the journal it
      wrote (runs/*.jsonl) is read with `cosched report --json`, as for (a) and (b). A command's traffic is what its
      memory-demand probe measured (two copies side by side, docs/profiler.md), read with the node model the demo
      calibrates: its journals have both predictions;
  (d) `cosched run` on the command batch, with a cache of its own: (b)'s path for a user's own programs, the
      traffic from the same probe, kept in the cache with the profile.

Per run and over the runs (default 3, a pause between) it reports, for each path and each model (paper,
contention-aware), the batch's |observed / predicted - 1| and the median over the tasks of each task's
|observed duration / predicted duration - 1|; for (c) the median and the worst of these over the plans.

    bench/unseen_batch.py                        # 3 runs, 3 reps per profiled point, 30 s between runs
    bench/unseen_batch.py --passes-scale 10      # the same batch with 10 x the passes (tasks of seconds)
    bench/unseen_batch.py --paths chain,run      # only (a) and (b)
    bench/unseen_batch.py --paths demo,run-commands   # only the command batch, (c) and (d)
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
PATHS = ("chain", "run", "demo", "run-commands")
FOOTPRINT_MIB = 128
ARRAYS = {"triad": 3, "copy": 2}  # arrays each kernel allocates (docs/stream_bench.md): --size-mib is each one's size


def batch_groups(quick: bool, passes_scale: int) -> list:
    """(kernel, passes, count) of the batch, in file order."""
    count = 1 if quick else 2
    return [(kernel, passes * passes_scale, count) for kernel, passes in
            (("triad", 40), ("triad", 5), ("copy", 40), ("copy", 5))]


def write_batch(path: Path, groups: list) -> None:
    """The batch as the workload TOML of kernels: paths (a) and (b)."""
    passes = sorted({p for _, p, _ in groups})
    text = (f'name = "unseen"\ndescription = "triad and copy at {FOOTPRINT_MIB} MiB, {" and ".join(map(str, passes))} '
            'passes: footprint and passes the README chain\'s profile (64 and 256 MiB, 1 and 20 passes) did not see"\n')
    for kernel, passes, count in groups:
        text += (f'\n[[tasks]]\nkernel = "{kernel}"\nfootprint_mib = {FOOTPRINT_MIB}\ncount = {count}\n'
                 f'passes = {passes}\n')
    path.write_text(text)


def shortest(value: float) -> str:
    """A number as the launcher writes --size-mib (fmt's "{}": the shortest text that reads back, 64 not 64.0)."""
    return str(int(value)) if value.is_integer() else repr(value)


def write_command_batch(path: Path, groups: list, stream_bench: Path) -> None:
    """The same batch as a JSON workload of commands (docs/launcher.md): each task the stream_bench argv the launcher
    gives a STREAM task of that kernel, footprint and passes (runtime/src/exec/task_command.cpp, stream_argv; cores
    reach it through the binding, threads through {threads}), with its footprint. Path (c)."""
    tasks = []
    for kernel, passes, count in groups:
        for k in range(count):
            tasks.append({"id": f"{kernel}-{passes}p-{k}", "footprint_bytes": FOOTPRINT_MIB << 20,
                          "command": [str(stream_bench), "--kernel", kernel, "--threads", "{threads}",
                                      "--size-mib", shortest(FOOTPRINT_MIB / ARRAYS[kernel]), "--reps", str(passes),
                                      "--warmup", "0", "--json"]})
    document = {"name": "unseen-commands",
                "description": f"unseen.toml's batch as commands: triad and copy at {FOOTPRINT_MIB} MiB",
                "tasks": tasks}
    path.write_text(json.dumps(document, indent=1) + "\n")


def chain(cosched, folder: Path, batch: Path, args) -> dict:
    """(a): the README table's rows with this benchmark's batch and kernels; returns the report of its journal."""
    folder.mkdir(parents=True, exist_ok=True)
    cosched("calibrate", "--quick", "--output", "node.toml", "--quiet", cwd=folder)
    cosched("profile", "--measurer", "process", "--passes", "1,20", "--kernels", "triad,copy", "--footprints-mib",
            "64,256", "--cores", "1,2", "--chunks", "0,20", "--reps", args.reps, "--platform", PLATFORM, "-o",
            "prof.csv", "--quiet", cwd=folder)
    cosched("instance", "--workload", batch, "--profiles", "prof.csv", "--platform", PLATFORM, "--node", "node.toml",
            "-o", "inst.json", cwd=folder)
    cosched("plan", "--instance", "inst.json", "--algorithm", args.algorithm, "--output", "s.json", cwd=folder)
    cosched("launch", "s.json", "--workload", batch, "--platform", PLATFORM, "--journal", "run.jsonl", cwd=folder)
    return read_report(cosched, folder / "run.jsonl")


def run_command(cosched, folder: Path, batch: Path, cache: Path, args) -> dict:
    """(b): `cosched run` with the benchmark's cache; returns the report of its journal."""
    cosched("run", batch, "--cache", cache, "--platform", PLATFORM, "--reps", args.reps, "--algorithm", args.algorithm,
            "--output", folder, "--force")
    return read_report(cosched, folder / "journal.jsonl")


def demo_workload(cosched, folder: Path, commands: Path, args) -> dict:
    """(c): `cosched demo --workload` on the command batch; every plan's journal read with `cosched report --json`
    (the demo writes results.csv and no JSON report of its own). Returns the median over the plans of each figure,
    the worst batch error, and the plans' reports."""
    cosched("demo", "--workload", commands, "--output", folder, "--force", *(["--quick"] if args.quick else []))
    journals = sorted((folder / "runs").glob("*.jsonl"))
    if not journals:
        raise BenchError(f"{folder / 'runs'}: `cosched demo --workload` left no journal")
    plans = [read_report(cosched, journal) for journal in journals]

    def over_plans(values, pick):
        values = [v for v in values if v is not None]
        return pick(values) if values else None

    summary = {key: over_plans([plan[key] for plan in plans], statistics.median)
               for key in ("observed_makespan", "predicted_makespan", "predicted_makespan_contention")}
    for key in ("batch_abs_error", "task_median_abs_error"):
        summary[key] = {model: over_plans([plan[key][model] for plan in plans], statistics.median)
                        for model in ("paper", "contention")}
    summary["batch_abs_error_worst"] = {model: over_plans([plan["batch_abs_error"][model] for plan in plans], max)
                                        for model in ("paper", "contention")}
    summary["plans"] = plans
    return summary


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


def seconds(value) -> str:
    return "      n/a" if value is None else f"{value:8.3f}s"


def spread(values: list):
    values = [v for v in values if v is not None]
    return {"median": statistics.median(values), "min": min(values), "max": max(values)} if values else None


def print_summary(runs: list, paths: list) -> dict:
    """The table (one row per path and run; for the demo, the median over its plans and, below, the worst plan) and
    the summary over the runs."""
    summary = {}
    print(f"\n{'path':12s} {'run':>3s} | {'observed':>9s} {'pred paper':>10s} {'pred cont':>10s} | "
          f"{'|batch err| paper':>17s} {'contention':>10s} | {'task median |err| paper':>23s} {'contention':>10s}")
    for path in paths:
        for number, run in enumerate(runs, 1):
            r = run[path]
            print(f"{path:12s} {number:3d} | {seconds(r['observed_makespan'])} {seconds(r['predicted_makespan']):>10s} "
                  f"{seconds(r['predicted_makespan_contention']):>10s} | "
                  f"{pct(r['batch_abs_error']['paper']):>17s} {pct(r['batch_abs_error']['contention']):>10s} | "
                  f"{pct(r['task_median_abs_error']['paper']):>23s} "
                  f"{pct(r['task_median_abs_error']['contention']):>10s}")
            if "batch_abs_error_worst" in r:
                print(f"{'':12s} {'':3s} | {len(r['plans'])} plans: the median above; worst plan's |batch err| "
                      f"{pct(r['batch_abs_error_worst']['paper']).strip()} (paper), "
                      f"{pct(r['batch_abs_error_worst']['contention']).strip()} (contention)")
        summary[path] = {}
        for model in ("paper", "contention"):
            summary[path][model] = {
                "batch_abs_error": spread([run[path]["batch_abs_error"][model] for run in runs]),
                "task_median_abs_error": spread([run[path]["task_median_abs_error"][model] for run in runs])}
            if "batch_abs_error_worst" in runs[0][path]:
                summary[path][model]["batch_abs_error_worst_plan"] = spread(
                    [run[path]["batch_abs_error_worst"][model] for run in runs])
            b = summary[path][model]["batch_abs_error"]
            if b:
                over = " (per run: the median over the plans)" if path == "demo" else ""
                print(f"{path:12s} over {len(runs)} run(s), {model:10s}: batch |error| median {pct(b['median'])} "
                      f"(min {pct(b['min'])}, max {pct(b['max'])}){over}")
    return summary


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=Path, default=ROOT / "build" / "bin", help="folder of cosched and stream_bench")
    parser.add_argument("--output", type=Path, default=None, help="output folder (default unseen-batch-<UTC time>)")
    parser.add_argument("--runs", type=int, default=3, help="runs of every path (default 3)")
    parser.add_argument("--pause", type=float, default=30.0, help="seconds between runs (default 30)")
    parser.add_argument("--reps", type=int, default=3, help="timed runs per profiled point of (a) and (b) (default 3)")
    parser.add_argument("--passes-scale", type=int, default=1, metavar="K",
                        help="multiply the batch's passes by K (40 -> 40K, 5 -> 5K; default 1); the README chain's "
                             "profile stays at 1 and 20 passes")
    parser.add_argument("--paths", default=",".join(PATHS),
                        help=f"the paths to run, comma-separated (default {','.join(PATHS)})")
    parser.add_argument("--algorithm", default="t-pack-ff",
                        help="planner of (a) and (b) (default t-pack-ff, the README's); (c) plans with every one")
    parser.add_argument("--quick", action="store_true",
                        help="check the script: 1 run, 1 rep, one task per group, the demo with --quick")
    args = parser.parse_args()
    if args.runs < 1 or args.reps < 1 or args.passes_scale < 1 or not args.pause >= 0:
        parser.error("--runs, --reps and --passes-scale must be >= 1, --pause >= 0")
    args.paths = [path for path in args.paths.split(",") if path]
    if not args.paths or any(path not in PATHS for path in args.paths):
        parser.error(f"--paths: a comma-separated list of {', '.join(PATHS)}")
    if args.quick:
        args.runs, args.reps, args.pause = 1, 1, 0.0
    args.output = args.output or stamped_folder("unseen-batch")
    return args


def main() -> int:
    args = parse_arguments()
    args.output = args.output.resolve()
    args.bin = args.bin.resolve()
    args.output.mkdir(parents=True, exist_ok=True)
    groups = batch_groups(args.quick, args.passes_scale)
    batch = args.output / "unseen.toml"
    write_batch(batch, groups)
    commands = args.output / "unseen-commands.json"
    write_command_batch(commands, groups, args.bin / "stream_bench")
    cache = args.output / "cache"
    started = time.time()
    load_start = os.getloadavg()
    print(f"unseen batch: {args.runs} run(s) of {', '.join(args.paths)} ({args.algorithm} for chain and run), batch "
          f"{batch} (passes x {args.passes_scale}); EMULATED fast tier ({PLATFORM.name}); load average "
          f"{load_start[0]:.2f}; output {args.output}", flush=True)
    runs = []
    with (args.output / "commands.log").open("w") as log:
        cosched = Cosched(args.bin, log)
        for number in range(1, args.runs + 1):
            if number > 1 and args.pause > 0:
                time.sleep(args.pause)
            run = {"load_average": os.getloadavg()}
            for path in args.paths:
                folder = args.output / f"run{number}-{path}"
                path_started = time.time()
                if path == "chain":
                    run[path] = chain(cosched, folder, batch, args)
                elif path == "run":
                    run[path] = run_command(cosched, folder, batch, cache, args)
                elif path == "run-commands":
                    run[path] = run_command(cosched, folder, commands, args.output / "cache-commands", args)
                else:
                    run[path] = demo_workload(cosched, folder, commands, args)
                run[path]["wall_s"] = time.time() - path_started
                contention = run[path]["predicted_makespan_contention"]
                plans = f" (median of {len(run[path]['plans'])} plans)" if "plans" in run[path] else ""
                print(f"run {number}/{args.runs} {path:12s}: observed {run[path]['observed_makespan']:.3f} s, "
                      f"predicted {run[path]['predicted_makespan']:.3f} s (paper), "
                      f"{'n/a' if contention is None else f'{contention:.3f} s'} (contention-aware){plans}; "
                      f"{run[path]['wall_s']:.0f} s", flush=True)
            runs.append(run)
    summary = print_summary(runs, args.paths)
    line, load_end = closing_line(started, load_start)
    print("\n" + line)
    document = {"benchmark": "bench/unseen_batch.py", "date_utc": datetime.datetime.utcnow().isoformat() + "Z",
                "host": socket.gethostname(), "platform": str(PLATFORM), "algorithm": args.algorithm,
                "reps": args.reps, "passes_scale": args.passes_scale, "paths": args.paths, "batch": batch.read_text(),
                "command_batch": json.loads(commands.read_text()),
                "load_average": {"start": load_start, "end": load_end},
                "wall_s": time.time() - started, "summary": summary, "runs": runs}
    (args.output / "unseen_batch.json").write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {args.output / 'unseen_batch.json'}")
    return 0


if __name__ == "__main__":
    run_main(main, "unseen_batch")
