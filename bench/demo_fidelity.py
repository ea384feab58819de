#!/usr/bin/python3
"""Demo fidelity benchmark (issue 23, part 3): how close are the two predictions over whole `cosched demo` runs,
and how do the planners do against the eight algorithms of Sun et al.?

Runs the full demo N times (default 3) with a pause between runs, so the runs see the machine at different moments,
then reads each run's folder: per memory configuration (cores + fast memory, cores only with all memory slow,
cores only with the tier left to the system, and the mixed batch in its three configurations), the median and the
worst |observed / predicted - 1| of each model (paper and contention-aware) and their signed median (the bias);
the run's noise floor (one plan launched three times: half range / median) and how close any one prediction can
come to all of those launches (a worst-error goal below that is out of reach in that run); each planner's
observed makespan over the best and over the median of the eight; per task, observed / predicted duration for
tasks that ran alone and that co-ran, by task type (what the residual model errors are made of); and per
cores + fast launch, its error next to how fast its tasks that ran alone went against their profile (the
machine's state at that launch); how many launches' observed makespans fell inside the 80 % interval each stated
(per configuration and over all; issue 39 asks 70-90 %). The same over all runs.

Measures, never asserts: stdout, demo_fidelity.json and demo_fidelity.csv in the output folder, and every run's
demo folder under it (docs/fidelity.md, "The demo over several runs"). `--analyse DIR...` reads demo folders
that already exist instead of running new ones. Python 3 standard library only.
"""

import argparse
import csv
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from corun_fidelity import BenchError, Cosched

# The eight algorithms of Sec. 5.1: the reference every other planner's observed makespan is compared with.
EIGHT = ("d-list-spt", "d-list-lpt", "t-list-spt", "t-list-lpt", "d-pack-nf", "d-pack-ff", "t-pack-nf", "t-pack-ff")
STREAM_CONFIGURATIONS = ("cores+fast", "cores-only-slow", "cores-only-system")
MODELS = ("paper", "contention")
# Issue 23's goals, printed next to the figures (the lead measures them on a quiet machine).
GOALS = {"cores+fast": (0.03, 0.06), "cores-only-slow": (0.05, None), "cores-only-system": (0.05, None),
         "mixed": (0.05, None)}
EMULATED = "EMULATED"


def load_average():
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def cpu_times():
    """The machine's (steal, total) CPU time so far, in ticks (/proc/stat's "cpu" line); None where not Linux."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def steal_share(before, after):
    """The share of CPU time the hypervisor gave to others while the VM wanted it (a disturbed run shows here)."""
    if before is None or after is None or after[1] <= before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1])


# ---- one demo run ----------------------------------------------------------------------------------------------


def run_demo(cosched, folder: Path, quick: bool, log) -> dict:
    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = load_average()
    cpu_before = cpu_times()
    begin = time.monotonic()
    cosched("demo", "--output", folder, *(["--quick"] if quick else []))
    return {"folder": str(folder), "started_utc": started.isoformat(timespec="seconds"),
            "seconds": time.monotonic() - begin, "load_before": load_before, "load_after": load_average(),
            "steal_share": steal_share(cpu_before, cpu_times())}


def number(text):
    return float(text) if text not in ("", None) else None


def read_rows(folder: Path) -> list:
    """Every launched plan of a demo folder: the STREAM batch's rows and the mixed batch's (configuration
    "mixed:<configuration>")."""
    results = json.loads((folder / "results.json").read_text())
    rows = [{"group": row["configuration"], "configuration": row["configuration"], "algorithm": row["algorithm"],
             "paper": row["predicted_makespan"], "contention": row["predicted_makespan_contention"],
             "observed": row["observed_makespan"], "journal": row["journal"]} for row in results["rows"]]
    mixed = folder / "mixed" / "results.csv"
    if mixed.is_file():
        with mixed.open() as handle:
            for row in csv.DictReader(handle):
                rows.append({"group": "mixed", "configuration": "mixed:" + row["configuration"],
                             "algorithm": row["algorithm"], "paper": number(row["predicted_makespan_s"]),
                             "contention": number(row["predicted_makespan_contention_s"]),
                             "observed": number(row["observed_makespan_s"]),
                             "journal": str(folder / "mixed" / "runs" / row["journal"])})
    return rows


def error(observed, predicted):
    return observed / predicted - 1.0 if predicted else None


def error_summary(values: list) -> dict:
    if not values:
        return {"plans": 0, "median_abs": None, "worst_abs": None, "median_signed": None}
    return {"plans": len(values), "median_abs": statistics.median(abs(v) for v in values),
            "worst_abs": max(abs(v) for v in values), "median_signed": statistics.median(values)}


def model_errors(rows: list, key: str, value: str) -> dict:
    """Per model, the error summary of the rows whose `key` is `value`."""
    chosen = [row for row in rows if row[key] == value]
    return {model: error_summary([e for e in (error(row["observed"], row[model]) for row in chosen) if e is not None])
            for model in MODELS}


def planner_ratios(rows: list) -> dict:
    """Each planner that is not one of the eight: observed over the best and over the median of the eight
    (cores + fast memory), and the same for its contention-aware prediction."""
    eight = [row for row in rows if row["configuration"] == "cores+fast" and row["algorithm"] in EIGHT]
    if not eight:
        return {}
    best, middle = min(r["observed"] for r in eight), statistics.median(r["observed"] for r in eight)
    predicted = [r["contention"] for r in eight if r["contention"]]
    ratios = {}
    for row in rows:
        if row["configuration"] != "cores+fast" or row["algorithm"] in EIGHT:
            continue
        ratios[row["algorithm"]] = {
            "observed": row["observed"], "over_best_of_eight": row["observed"] / best,
            "over_median_of_eight": row["observed"] / middle,
            "predicted_contention_over_best_of_eight":
                row["contention"] / min(predicted) if row["contention"] and predicted else None}
    return ratios


def journal_reports(cosched, rows: list) -> dict:
    """`cosched report --json` of every row's journal that exists, read once: journal path -> report."""
    return {row["journal"]: json.loads(cosched("report", row["journal"], "--json"))
            for row in rows if Path(row["journal"]).is_file()}


def task_residuals(reports: dict, rows: list) -> tuple:
    """Per task type (kernel and footprint) and for tasks alone / co-running, the median observed / predicted
    duration of each model, over the cores + fast memory launches; and per launch, its error next to the median
    observed / predicted duration of its tasks that ran alone — whose prediction is their profile, so that ratio is
    how fast the machine ran then against when it was profiled (the machine's state, which no co-running model
    sees)."""
    samples, plans = {}, []
    for row in rows:
        report = reports.get(row["journal"])
        if row["configuration"] != "cores+fast" or report is None:
            continue
        tasks = [t for t in report["tasks"] if t["status"] == "ok"]
        alone = []
        for task in tasks:
            observed = task["observed_end"] - task["observed_start"]
            overlap = max((min(task["observed_end"], o["observed_end"]) - max(task["observed_start"], o["observed_start"])
                           for o in tasks if o is not task), default=0.0)
            corun = "co-running" if overlap > 0.01 * observed else "alone"
            kind = task["task"].rsplit("-", 1)[0]  # <kernel>-<footprint>MiB-<k>: the task type
            paper = task["planned_end"] - task["planned_start"]
            predicted = {"paper": paper}
            if task["predicted_contention_start"] is not None:
                predicted["contention"] = task["predicted_contention_end"] - task["predicted_contention_start"]
            for model, seconds in predicted.items():
                if seconds > 0:
                    samples.setdefault((kind, corun, model), []).append(observed / seconds)
            if corun == "alone" and paper > 0:
                alone.append(observed / paper)
        plans.append({"algorithm": row["algorithm"], "error_contention": error(row["observed"], row["contention"]),
                      "alone_tasks": len(alone), "alone_median_ratio": statistics.median(alone) if alone else None})
    residuals = {f"{kind} {corun} {model}": {"tasks": len(v), "median_ratio": statistics.median(v)}
                 for (kind, corun, model), v in sorted(samples.items())}
    return residuals, plans


def interval_coverage(reports: dict, rows: list) -> dict:
    """How many launches' observed makespans fell inside the 80 % interval each stated (`cosched report --json` of
    its journal), per group (the STREAM batch's configurations, "mixed") and over all, with the misses' side."""
    coverage = {}
    for row in rows:
        report = reports.get(row["journal"])
        if report is None:
            continue
        interval, inside = report.get("predicted_interval"), report.get("inside_interval")
        if interval is None or inside is None:
            continue
        for group in (row["group"], "all"):
            cell = coverage.setdefault(group, {"stated": 0, "inside": 0, "below": 0, "above": 0})
            cell["stated"] += 1
            cell["inside"] += bool(inside)
            cell["below"] += report["observed_makespan"] < interval["low_s"]
            cell["above"] += report["observed_makespan"] > interval["high_s"]
    return coverage


def least_worst_error(launches: list):
    """The least worst |observed / predicted - 1| any one prediction can have over repeated launches of one plan:
    predicting their midrange, (max - min) / (max + min). A worst-error goal below it cannot be met by any model in
    that run, since the plan's own launches disagree by more."""
    if len(launches) < 2:
        return None
    return (max(launches) - min(launches)) / (max(launches) + min(launches))


def analyse_run(cosched, folder: Path, meta: dict) -> dict:
    results = json.loads((folder / "results.json").read_text())
    rows = read_rows(folder)
    groups = {group: model_errors(rows, "group", group) for group in (*STREAM_CONFIGURATIONS, "mixed")}
    for configuration in sorted({row["configuration"] for row in rows if row["group"] == "mixed"}):
        groups[configuration] = model_errors(rows, "configuration", configuration)
    fidelity = results["fidelity"]
    reports = journal_reports(cosched, rows)
    residuals, plans = task_residuals(reports, rows)
    return {**meta, "folder": str(folder), "emulated": results.get("emulated", False),
            "quick": results.get("quick", False), "node": results.get("node"),
            "noise_floor": fidelity["noise_floor"], "noise_floor_algorithm": fidelity["noise_floor_algorithm"],
            "noise_floor_observed": fidelity["noise_floor_observed"],
            "least_worst_error": least_worst_error(fidelity["noise_floor_observed"]), "groups": groups,
            "planners": planner_ratios(rows), "tasks": residuals, "plans": plans,
            "interval": interval_coverage(reports, rows)}


# ---- over runs -------------------------------------------------------------------------------------------------


def over_runs(runs: list) -> dict:
    summary = {"groups": {}, "planners": {}, "noise_floor": [run["noise_floor"] for run in runs],
               "least_worst_error": [run.get("least_worst_error") for run in runs], "interval": {}}
    for run in runs:
        for group, cell in run.get("interval", {}).items():
            total = summary["interval"].setdefault(group, {"stated": 0, "inside": 0, "below": 0, "above": 0})
            for key in total:
                total[key] += cell[key]
    for group in runs[0]["groups"]:
        summary["groups"][group] = {}
        for model in MODELS:
            per_run = [run["groups"].get(group, {}).get(model, {}) for run in runs]
            medians = [p["median_abs"] for p in per_run if p.get("median_abs") is not None]
            worsts = [p["worst_abs"] for p in per_run if p.get("worst_abs") is not None]
            summary["groups"][group][model] = {
                "median_of_run_medians": statistics.median(medians) if medians else None,
                "largest_run_median": max(medians) if medians else None,
                "worst_over_runs": max(worsts) if worsts else None}
    for name in sorted({name for run in runs for name in run["planners"]}):
        ratios = [run["planners"][name] for run in runs if name in run["planners"]]
        summary["planners"][name] = {
            "largest_over_best_of_eight": max(r["over_best_of_eight"] for r in ratios),
            "largest_over_median_of_eight": max(r["over_median_of_eight"] for r in ratios),
            "runs_at_or_below_best_of_eight": sum(r["over_best_of_eight"] <= 1.0 for r in ratios),
            "runs": len(ratios)}
    return summary


def percent(value):
    return "-" if value is None else f"{100 * value:.1f} %"


def describe_coverage(group: str, cell: dict) -> str:
    return (f"{group} {cell['inside']} of {cell['stated']} ({100 * cell['inside'] / cell['stated']:.0f} %, "
            f"{cell['below']} below, {cell['above']} above)")


def print_run(k: int, run: dict) -> None:
    tag = f" [{EMULATED}]" if run["emulated"] else ""
    loads = f"load {run.get('load_before') or 0:.1f} -> {run.get('load_after') or 0:.1f}" if "load_before" in run else ""
    if run.get("steal_share") is not None:
        loads += f", steal {100 * run['steal_share']:.1f} %"
    print(f"\nrun {k}: {run['folder']} {run.get('started_utc', '')} {loads}{tag}")
    print(f"  noise floor ±{100 * run['noise_floor']:.1f} % ({run['noise_floor_algorithm']}: "
          f"{', '.join(f'{v:.3f}' for v in run['noise_floor_observed'])} s)")
    reach = run.get("least_worst_error")
    if reach is not None:
        print(f"  no prediction of that plan is within {percent(reach)} of all its launches: a worst-error goal "
              f"below that is out of reach in this run")
    print(f"  {'configuration':<28} {'plans':>5} {'paper median':>13} {'worst':>8} {'bias':>8}"
          f" {'contention median':>18} {'worst':>8} {'bias':>8}  goal (median, worst)")
    for group, models in run["groups"].items():
        paper, contention = models["paper"], models["contention"]
        goal = GOALS.get(group)
        verdict = ""
        if goal and contention["median_abs"] is not None:
            met = contention["median_abs"] <= goal[0] and (goal[1] is None or contention["worst_abs"] <= goal[1])
            verdict = f"≤ {percent(goal[0])}{'' if goal[1] is None else ', ≤ ' + percent(goal[1])}: " \
                      f"{'met' if met else 'not met'}"
            if goal[1] is not None and reach is not None and reach > goal[1]:
                verdict += " (worst out of reach)"
        print(f"  {group:<28} {paper['plans']:>5} {percent(paper['median_abs']):>13} {percent(paper['worst_abs']):>8} "
              f"{percent(paper['median_signed']):>8} {percent(contention['median_abs']):>18} "
              f"{percent(contention['worst_abs']):>8} {percent(contention['median_signed']):>8}  {verdict}")
    if run["tasks"]:
        print("  tasks, observed / predicted duration (median; cores + fast memory): paper, contention-aware")
        for key in sorted({k.rsplit(" ", 1)[0] for k in run["tasks"]}):
            cells = [run["tasks"].get(f"{key} {model}") for model in MODELS]
            count = cells[0]["tasks"] if cells[0] else 0
            print(f"    {key:<28} {count:>4} tasks  " + "  ".join(
                f"{cell['median_ratio']:.3f}" if cell else "-" for cell in cells))
    plans = [p for p in run.get("plans", [])
             if p["alone_median_ratio"] is not None and p["error_contention"] is not None]
    if plans:
        print("  cores + fast launches, in launch order: contention-aware error, and the median observed / profiled "
              "duration of the tasks that ran alone (the machine's speed then)")
        print("    " + ", ".join(f"{p['algorithm']} {100 * p['error_contention']:+.1f} % / "
                                  f"{p['alone_median_ratio']:.2f}" for p in plans))
    if run.get("interval"):
        print("  observed inside the stated 80 % interval (goal 70-90 %): " + "; ".join(
            describe_coverage(group, cell) for group, cell in run["interval"].items()))
    for name, ratio in run["planners"].items():
        print(f"  {name:<14} observed {ratio['observed']:.3f} s = {ratio['over_best_of_eight']:.3f} x the best of the "
              f"eight, {ratio['over_median_of_eight']:.3f} x their median (goal for model-search: ≤ 1, ≤ 0.95)")


def print_summary(summary: dict, runs: int) -> None:
    print(f"\nover {runs} runs: noise floor {', '.join(percent(v) for v in summary['noise_floor'])}; "
          f"least worst error of one prediction {', '.join(percent(v) for v in summary['least_worst_error'])}")
    for group, models in summary["groups"].items():
        cells = "; ".join(f"{model}: median of run medians {percent(m['median_of_run_medians'])}, largest run median "
                          f"{percent(m['largest_run_median'])}, worst {percent(m['worst_over_runs'])}"
                          for model, m in models.items())
        print(f"  {group:<28} {cells}")
    if summary["interval"]:
        print("  observed inside the stated 80 % interval (goal 70-90 %): " + "; ".join(
            describe_coverage(group, cell) for group, cell in summary["interval"].items()))
    for name, p in summary["planners"].items():
        print(f"  {name:<14} at or below the best of the eight in {p['runs_at_or_below_best_of_eight']} of "
              f"{p['runs']} runs; largest {p['largest_over_best_of_eight']:.3f} x the best, "
              f"{p['largest_over_median_of_eight']:.3f} x the median")


def write_csv(path: Path, runs: list) -> None:
    with path.open("w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["run", "folder", "configuration", "model", "plans", "median_abs_error", "worst_abs_error",
                      "median_signed_error", "noise_floor", "emulated"])
        for k, run in enumerate(runs, 1):
            for group, models in run["groups"].items():
                for model, m in models.items():
                    out.writerow([k, run["folder"], group, model, m["plans"], m["median_abs"], m["worst_abs"],
                                  m["median_signed"], run["noise_floor"], EMULATED if run["emulated"] else ""])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="full demos to run (default 3)")
    parser.add_argument("--gap-s", type=float, default=120.0,
                        help="pause between two runs, so they see the machine at different moments (default 120)")
    parser.add_argument("--quick", action="store_true", help="run `cosched demo --quick` (a smaller batch)")
    parser.add_argument("--bin", type=Path, default=Path(__file__).resolve().parent.parent / "build" / "bin",
                        help="where cosched and stream_bench are (default: build/bin of this repository)")
    parser.add_argument("--output", type=Path,
                        default=Path(f"demo-fidelity-{datetime.datetime.now(datetime.timezone.utc):%Y%m%dT%H%M%SZ}"))
    parser.add_argument("--analyse", type=Path, nargs="+", metavar="DIR",
                        help="read these demo folders instead of running new demos")
    args = parser.parse_args(argv)
    if args.runs < 1 or not args.gap_s >= 0:
        parser.error("--runs must be >= 1 and --gap-s >= 0")
    args.output.mkdir(parents=True, exist_ok=True)
    with (args.output / "commands.log").open("a") as log:
        try:
            cosched = Cosched(args.bin, log)
            folders, metas = [], []
            if args.analyse:
                folders, metas = list(args.analyse), [{} for _ in args.analyse]
            for k in range(0 if args.analyse else args.runs):
                if k > 0:
                    time.sleep(args.gap_s)
                folder = args.output / f"run-{k + 1}"
                print(f"run {k + 1}/{args.runs}: cosched demo --output {folder}", flush=True)
                metas.append(run_demo(cosched, folder, args.quick, log))
                folders.append(folder)
            runs = [analyse_run(cosched, folder, meta) for folder, meta in zip(folders, metas)]
        except (BenchError, OSError, KeyError, ValueError) as problem:
            print(f"demo_fidelity: {problem}", file=sys.stderr)
            return 1
    for k, run in enumerate(runs, 1):
        print_run(k, run)
    summary = over_runs(runs)
    print_summary(summary, len(runs))
    (args.output / "demo_fidelity.json").write_text(json.dumps({"runs": runs, "summary": summary}, indent=2) + "\n")
    write_csv(args.output / "demo_fidelity.csv", runs)
    print(f"\n{args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
