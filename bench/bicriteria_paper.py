#!/usr/bin/python3
"""Reproduction of seed 001 (Dutot, Eyraud-Dubois, Mounie, Trystram: bi-criteria algorithm, SPAA 2004) through
the built `cosched plan`, as a user would run it (issue 13, part 5).

The four workloads of Sec. 4 (Fig. 3-6), m = 200 processors, n = 25..400 tasks, --runs runs per point (the paper:
40), weights U(1, 10):
  weak   - p(1) ~ U(1, 10), weakly parallel recurrence        (Fig. 3)
  high   - p(1) ~ U(1, 10), highly parallel recurrence        (Fig. 4)
  mixed  - 70 % small N(1, 0.5) weakly parallel, 30 % large N(10, 5) highly parallel (non-positive draws redrawn)
  cirne  - p(1) ~ U(1, 10), Downey speedups as a stand-in for the Cirne-Berman model (its parameters are not in the
           paper): average parallelism A log-uniform in [1, m], sigma ~ U(0, 2)                      (Fig. 6)
The recurrence is the printed one, p(k) = p(k-1) (X + k) / (1 + k), X ~ N(mean, 0.2) redrawn outside [0, 1] at every
step. Under it X -> 0 gives a quasi-linear speedup and X -> 1 none, so the paper's means are swapped to match its
words: highly parallel = mean 0.1, weakly parallel = mean 0.9 (the digest's recommendation; docs/scheduling.md).

Each instance is planned once with `cosched plan --algorithm all` (every registered algorithm and the bounds); a
point is the ratio of sums over its runs (sum of the algorithm's values / sum of the lower bounds, as the paper does)
with the min and max of the per-run ratios, against two bounds per criterion: makespans against the two-shelf bound
of MRT's dual approximation (the paper's reference) and against L_min(d); sum w_j C_j against the interval-indexed
LP with our objective coefficients (max(interval start, fastest time), the default) and with the paper's (the
interval start). One more ratio is a diagnostic, NOT against a valid bound: sum w_j C_j over the paper's LP on its
printed intervals only, (t_0, 2 C*max] (`LP_printed` of `plan --algorithm all`; docs/bicriteria.md, B1), over the
runs where that LP is feasible.
The time goal (n = 400 planned in < 0.5 s including the LP) is the wall time of a whole
`cosched plan --algorithm bicriteria` process on the n = 400 instances (reading the JSON included).
Measures, never asserts. Writes bicriteria_paper.json, bicriteria_paper.csv and, with matplotlib,
bicriteria_paper.png into --out.
"""

import argparse
import csv
import json
import math
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from online_cli import add_common_arguments, check_built, pyplot

WORKLOADS = ("weak", "high", "mixed", "cirne")
ALGORITHMS = ("bicriteria", "gang", "sequential-lptf", "list-mrt", "list-wlptf", "list-saf")
HIGH_MEAN, WEAK_MEAN = 0.1, 0.9  # X means under the printed recurrence (see the docstring)


def recurrence_times(rng: random.Random, sequential: float, m: int, mean: float) -> list:
    times = [sequential]
    for k in range(2, m + 1):
        x = rng.gauss(mean, 0.2)
        while not 0.0 <= x <= 1.0:
            x = rng.gauss(mean, 0.2)
        times.append(times[-1] * (x + k) / (1.0 + k))
    return times


def downey_speedup(n: float, a: float, sigma: float) -> float:
    """Downey's S(n) (runtime/include/cosched/online/downey.hpp)."""
    if sigma <= 1:
        if n <= a:
            return a * n / (a + sigma * (n - 1) / 2)
        if n <= 2 * a - 1:
            return a * n / (sigma * (a - 0.5) + n * (1 - sigma / 2))
        return a
    if n <= a + a * sigma - sigma:
        return n * a * (sigma + 1) / (sigma * (n + a - 1) + a)
    return a


def positive_gauss(rng: random.Random, mean: float, sd: float) -> float:
    value = rng.gauss(mean, sd)
    while value <= 0:
        value = rng.gauss(mean, sd)
    return value


def task_times(rng: random.Random, workload: str, m: int) -> list:
    if workload == "weak":
        return recurrence_times(rng, rng.uniform(1, 10), m, WEAK_MEAN)
    if workload == "high":
        return recurrence_times(rng, rng.uniform(1, 10), m, HIGH_MEAN)
    if workload == "mixed":
        if rng.random() < 0.7:
            return recurrence_times(rng, positive_gauss(rng, 1, 0.5), m, WEAK_MEAN)
        return recurrence_times(rng, positive_gauss(rng, 10, 5), m, HIGH_MEAN)
    sequential = rng.uniform(1, 10)
    a = 2 ** rng.uniform(0, math.log2(m))
    sigma = rng.uniform(0, 2)
    # Non-increasing times even where rounding would make S dip: the running minimum.
    times, best = [], math.inf
    for k in range(1, m + 1):
        best = min(best, sequential / downey_speedup(k, a, sigma))
        times.append(best)
    return times


def make_instance(workload: str, n: int, m: int, seed: int) -> dict:
    rng = random.Random(seed)
    tasks = []
    for j in range(n):
        times = task_times(rng, workload, m)
        tasks.append({"id": f"t{j}", "weight": rng.uniform(1, 10), "times": [None] + times})
    return {"resources": [{"name": "cores", "capacity": m}], "workload": f"seed001-{workload}", "tasks": tasks}


def plan_all(cosched: Path, instance_path: Path) -> dict:
    """`cosched plan --algorithm all`: per algorithm its makespan, sum w C and planning seconds, and the bounds
    (L_min, two-shelf, LP, LP with the paper's coefficients; the last columns of the table) and the printed-interval
    LP (the last column; "-" = infeasible, None here; not a bound)."""
    command = [str(cosched), "plan", "--instance", str(instance_path), "--algorithm", "all"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    rows = {}
    for line in done.stdout.splitlines()[1:]:
        fields = line.split()
        if fields[1] == "skipped:":
            continue
        rows[fields[0]] = {"makespan": float(fields[1]), "lmin": float(fields[2]), "seconds": float(fields[4]),
                           "weighted": float(fields[-6]), "lp": float(fields[-5]), "two_shelf": float(fields[-3]),
                           "lp_paper": float(fields[-2]),
                           "lp_printed": None if fields[-1] == "-" else float(fields[-1])}
    return rows


def plan_seconds(cosched: Path, instance_path: Path) -> dict:
    """Wall and CPU (user + system) time of one whole `cosched plan --algorithm bicriteria` (JSON read, L_min, LP,
    algorithm, JSON out). On a shared machine the wall time includes waiting for a core; the CPU time does not."""
    command = [str(cosched), "plan", "--instance", str(instance_path), "--algorithm", "bicriteria", "-o", "/dev/null"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall, 4), "cpu_s": round(cpu, 4)}


# (label, value, bound): makespan against the two-shelf bound (the paper's reference) and L_min(d); sum w C against
# our LP and the LP with the paper's objective coefficients; last, against the printed-interval LP, which is NOT a
# valid bound (a diagnostic of the gap to the paper's figures; runs where it is infeasible are left out).
RATIOS = (("makespan", "makespan", "two_shelf"), ("makespan_lmin", "makespan", "lmin"),
          ("weighted", "weighted", "lp"), ("weighted_paper_lp", "weighted", "lp_paper"),
          ("weighted_printed_lp_not_a_bound", "weighted", "lp_printed"))


def summarise(runs: list) -> dict:
    """Per algorithm and per ratio: the ratio of sums and the per-run min / max."""
    out = {}
    for name in ALGORITHMS:
        out[name] = {"mean_seconds": sum(r[name]["seconds"] for r in runs) / len(runs)}
        for label, value, bound in RATIOS:
            kept = [r[name] for r in runs if r[name][bound] is not None]
            out[name][f"{label}_runs"] = len(kept)
            if not kept:
                continue
            per_run = [r[value] / r[bound] for r in kept]
            out[name][f"{label}_ratio"] = sum(r[value] for r in kept) / sum(r[bound] for r in kept)
            out[name][f"{label}_min"] = min(per_run)
            out[name][f"{label}_max"] = max(per_run)
    return out


def plot(plt, points: dict, sizes: list, path: Path) -> None:
    figure, axes = plt.subplots(2, len(WORKLOADS), figsize=(4.2 * len(WORKLOADS), 7), sharex=True)
    for column, workload in enumerate(WORKLOADS):
        for row, criterion in enumerate(("weighted", "makespan")):
            ax = axes[row][column]
            for name in ALGORITHMS:
                values = [points[workload][n][name] for n in sizes]
                ratio = [v[f"{criterion}_ratio"] for v in values]
                if name == "bicriteria":
                    low = [r - v[f"{criterion}_min"] for r, v in zip(ratio, values)]
                    high = [v[f"{criterion}_max"] - r for r, v in zip(ratio, values)]
                    ax.errorbar(sizes, ratio, yerr=[low, high], label=name, linewidth=2.2, capsize=3, color="black")
                else:
                    ax.plot(sizes, ratio, marker=".", label=name)
            ax.axhline(2.5 if criterion == "weighted" else 2.0, color="red", linestyle=":", linewidth=1)
            ax.set_ylim(0.9, 6 if criterion == "weighted" else 4)
            ax.set_title(f"{workload}: {'sum w C / LP' if criterion == 'weighted' else 'Cmax / two-shelf LB'}")
            if row == 1:
                ax.set_xlabel("tasks (m = 200)")
    axes[0][0].legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--runs", type=int, default=40, help="runs per point (the paper: 40)")
    parser.add_argument("--tasks", default="25,50,100,200,300,400", help="n values, comma-separated")
    parser.add_argument("--processors", type=int, default=200)
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--seed", type=int, default=2004)
    args = parser.parse_args()
    check_built(args.cosched)
    sizes = [int(n) for n in args.tasks.split(",")]
    workloads = args.workloads.split(",")
    args.out.mkdir(parents=True, exist_ok=True)
    points, timing, rows = {}, [], []
    with tempfile.TemporaryDirectory() as scratch:
        for workload in workloads:
            points[workload] = {}
            for n in sizes:
                runs = []
                for run in range(args.runs):
                    path = Path(scratch) / f"{workload}-{n}-{run}.json"
                    seed = args.seed * 1_000_003 + WORKLOADS.index(workload) * 100_000 + n * 100 + run
                    path.write_text(json.dumps(make_instance(workload, n, args.processors, seed)))
                    runs.append(plan_all(args.cosched, path))
                    if n == max(sizes) and run < 3:
                        timing.append(plan_seconds(args.cosched, path))
                points[workload][n] = summarise(runs)
                for name, value in points[workload][n].items():
                    rows.append({"workload": workload, "tasks": n, "algorithm": name, **value})
                best = points[workload][n]["bicriteria"]
                print(f"{workload:6} n={n:4}: bicriteria " + ", ".join(
                    f"{label} {best[f'{label}_ratio']:.3f} (max {best[f'{label}_max']:.3f})"
                    if f"{label}_ratio" in best else f"{label} - (infeasible)" for label, _, _ in RATIOS), flush=True)
    bicriteria = [r for r in rows if r["algorithm"] == "bicriteria"]
    goals = {"plan_seconds_largest_n": timing}
    for label, _, _ in RATIOS:
        limit = 2.5 if label.startswith("weighted") else 2.0
        measured = [r for r in bicriteria if f"{label}_ratio" in r]
        if not measured:
            continue
        goals[f"{label}_max_point"] = max(r[f"{label}_ratio"] for r in measured)
        goals[f"{label}_worst_run"] = max(r[f"{label}_max"] for r in measured)
        goals[f"{label}_points_within_{limit}"] = all(r[f"{label}_ratio"] <= limit for r in measured)
        goals[f"{label}_mean_of_points"] = sum(r[f"{label}_ratio"] for r in measured) / len(measured)
    print(json.dumps(goals, indent=1))
    (args.out / "bicriteria_paper.json").write_text(json.dumps({"points": points, "goals": goals,
                                                                "runs": args.runs, "m": args.processors}, indent=1))
    with open(args.out / "bicriteria_paper.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(dict.fromkeys(key for row in rows for key in row)))
        writer.writeheader()
        writer.writerows(rows)
    plt = pyplot(lambda message: print(message, file=sys.stderr))
    if plt is not None and workloads == list(WORKLOADS):
        plot(plt, points, sizes, args.out / "bicriteria_paper.png")
        print(f"wrote {args.out / 'bicriteria_paper.png'}")


if __name__ == "__main__":
    main()
