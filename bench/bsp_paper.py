#!/usr/bin/env python3
"""Seed 004 (Dutot, Goldman, Kon, Netto, "Scheduling moldable BSP tasks", Sec. 4): A1-A4 on batches of BSP tasks
sampled from the SDSC-SP2 log (m = 64, 128) and the CTC-SP2 log (m = 256), makespan / lower bound against
tasks / processors (Figs. 2-4), and the planning time of all four on 1,000 tasks x 256 processors (the issue's
goal: < 1 s each).

Every batch comes from `cosched bsp-batch` (the project's one SWF parser), every schedule from `cosched plan
--algorithm all` (its table gives each algorithm's makespan and its own planning time). The lower bound is the
paper's, max(longest task at req, sum req * t(req) / m), computed from the Instance JSON. The protocol is the
paper's: `--runs` batches per point (40), the best and worst eighth dropped (5 and 5 of 40), the rest averaged.
The logs live in the workplace's shared/ folder; without it the script says so and stops.

    /usr/bin/python3 bench/bsp_paper.py --shared ../shared [--runs 40] [--ratios 0.25,0.5,1,2,4]
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from online_cli import add_common_arguments, check_built, pyplot  # noqa: E402

ALGORITHMS = ("bsp-a1", "bsp-a2", "bsp-a3", "bsp-a4")
# The paper: SDSC for 64 and 128 processors, CTC for 256.
PLATFORMS = (("SDSC-SP2-1998-4.2-cln.swf.gz", 64), ("SDSC-SP2-1998-4.2-cln.swf.gz", 128),
             ("CTC-SP2-1996-3.1-cln.swf.gz", 256))


def run(command: list[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def batch(cosched: Path, trace: Path, procs: int, tasks: int, seed: int, path: Path) -> float:
    """Writes the batch to `path`; returns the paper's lower bound."""
    run([str(cosched), "bsp-batch", "--trace", str(trace), "--procs", str(procs), "--tasks", str(tasks),
         "--seed", str(seed), "--output", str(path), "--force"])
    instance = json.loads(path.read_text())
    longest = max(task["time_at_req"] for task in instance["tasks"])
    work = sum(task["req"] * task["time_at_req"] for task in instance["tasks"])
    return max(longest, work / procs)


def plan_all(cosched: Path, path: Path) -> dict[str, tuple[float, float]]:
    """algorithm -> (makespan, planning seconds) from the `plan --algorithm all` table."""
    rows = {}
    for line in run([str(cosched), "plan", "--instance", str(path), "--algorithm", "all"]).splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 5 and fields[1] != "skipped:":
            rows[fields[0]] = (float(fields[1]), float(fields[4]))
    return rows


def trimmed_mean(values: list[float]) -> float:
    cut = len(values) // 8  # 5 of 40, as the paper
    kept = sorted(values)[cut:len(values) - cut] if len(values) > 2 * cut else values
    return statistics.fmean(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--runs", type=int, default=40, help="batches per point (the paper: 40)")
    parser.add_argument("--ratios", default="0.25,0.5,1,2,4", help="tasks / processors of the points")
    parser.add_argument("--timing-runs", type=int, default=3, help="runs of the 1,000 x 256 timing")
    args = parser.parse_args()
    traces = args.shared / "data" / "traces"
    if not traces.is_dir():
        print(f"{traces} not found: this reproduction needs the workplace's shared/ folder; skipped")
        return
    check_built(args.cosched)
    args.out.mkdir(parents=True, exist_ok=True)
    ratios = [float(r) for r in args.ratios.split(",")]
    results = {"runs": args.runs, "points": [], "timing": {}}
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "batch.json"
        for trace, procs in PLATFORMS:
            for ratio in ratios:
                tasks = max(1, round(ratio * procs))
                values = {name: [] for name in ALGORITHMS}
                for seed in range(1, args.runs + 1):
                    bound = batch(args.cosched, traces / trace, procs, tasks, seed, path)
                    rows = plan_all(args.cosched, path)
                    for name in ALGORITHMS:
                        values[name].append(rows[name][0] / bound)
                point = {"trace": trace, "procs": procs, "tasks": tasks, "ratio": ratio,
                         "mean": {name: trimmed_mean(v) for name, v in values.items()},
                         "worst": {name: max(v) for name, v in values.items()}}
                results["points"].append(point)
                print(f"m={procs:3d} n={tasks:4d} ({trace.split('-')[0]}): " +
                      "  ".join(f"{name} {point['mean'][name]:.3f} (max {point['worst'][name]:.3f})"
                                for name in ALGORITHMS), flush=True)
        # The goal: 1,000 tasks x 256 processors (CTC), each algorithm's own planning time.
        seconds = {name: [] for name in ALGORITHMS}
        for seed in range(1, args.timing_runs + 1):
            batch(args.cosched, traces / PLATFORMS[2][0], 256, 1000, seed, path)
            rows = plan_all(args.cosched, path)
            for name in ALGORITHMS:
                seconds[name].append(rows[name][1])
        results["timing"] = {name: {"median_s": statistics.median(v), "max_s": max(v)} for name, v in seconds.items()}
        print("1,000 tasks x 256 processors (CTC): " +
              "  ".join(f"{name} {statistics.median(v):.3f} s (max {max(v):.3f})" for name, v in seconds.items()))
    (args.out / "bsp_paper.json").write_text(json.dumps(results, indent=2) + "\n")
    plt = pyplot(print)
    if plt is None:
        return
    figure, axes = plt.subplots(1, len(PLATFORMS), figsize=(5 * len(PLATFORMS), 4), sharey=True)
    for axis, (trace, procs) in zip(axes, PLATFORMS):
        points = [p for p in results["points"] if p["procs"] == procs]
        for name in ALGORITHMS:
            axis.plot([p["ratio"] for p in points], [p["mean"][name] for p in points], marker="o", label=name)
        axis.set_xscale("log", base=2)
        axis.set_title(f"{procs} processors ({trace.split('-')[0]})")
        axis.set_xlabel("tasks / processors")
        axis.grid(True, alpha=0.3)
    axes[0].set_ylabel(f"makespan / lower bound (trimmed mean of {args.runs})")
    axes[0].legend()
    figure.tight_layout()
    figure.savefig(args.out / "bsp_paper.png", dpi=120)
    print(f"wrote {args.out / 'bsp_paper.png'} and {args.out / 'bsp_paper.json'}")


if __name__ == "__main__":
    main()
