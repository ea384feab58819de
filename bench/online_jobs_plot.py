#!/usr/bin/python3
"""Plots per-job results of `cosched online --jobs-out FILE.csv` (Batsim's _jobs.csv columns), one run per file:
utilisation (processors busy / m) and queue length (jobs released and not started) over time, and the stretch CDF,
one line per run. Each FILE may be given as LABEL=FILE (default label: the file's name without .csv).

    bench/online_jobs_plot.py --procs 140 ostrich=ostrich_jobs.csv easy=easy_jobs.csv --out jobs.png

Reads the CSV with the standard library; needs matplotlib (Debian: python3-matplotlib) for the figure, and says so
when it is missing. Curves are step functions sampled at every start, end and release; utilisation is averaged
over --bins equal time bins so that a million-job run stays readable.
"""

import argparse
import csv
import sys
from pathlib import Path

from online_cli import pyplot


def read_jobs(path: Path) -> list[dict]:
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        for key in ("submission_time", "starting_time", "finish_time", "stretch"):
            row[key] = float(row[key])
        row["processors"] = int(row["allocation"].split()[0]) if row["allocation"] else 0
    return rows


def step_series(events: list[tuple[float, int]]) -> tuple[list[float], list[int]]:
    """Times and running totals of (time, +k / -k) events; at one instant the decreases come first."""
    times, values, level = [], [], 0
    for time, delta in sorted(events, key=lambda e: (e[0], e[1])):
        level += delta
        if times and times[-1] == time:
            values[-1] = level
        else:
            times.append(time)
            values.append(level)
    return times, values


def binned_mean(times: list[float], values: list[int], end: float, bins: int) -> tuple[list[float], list[float]]:
    """The time average of a step function over `bins` equal bins of [times[0], end]."""
    start = times[0]
    width = (end - start) / bins if end > start else 1.0
    sums = [0.0] * bins
    for k, time in enumerate(times):
        until = times[k + 1] if k + 1 < len(times) else end
        a = time
        while a < until:
            b_index = min(int((a - start) / width), bins - 1)
            b = min(until, start + (b_index + 1) * width)
            if b <= a:  # rounding at a bin edge
                b = until
            sums[b_index] += values[k] * (b - a)
            a = b
    return [start + (i + 0.5) * width for i in range(bins)], [s / width for s in sums]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="FILE.csv or LABEL=FILE.csv")
    parser.add_argument("--procs", type=int, required=True, help="processors m of the runs (utilisation = busy / m)")
    parser.add_argument("--out", type=Path, default=Path("online_jobs.png"))
    parser.add_argument("--bins", type=int, default=400)
    args = parser.parse_args()
    plt = pyplot(print)
    if plt is None:
        return 0
    fig, (util_ax, queue_ax, cdf_ax) = plt.subplots(3, 1, figsize=(8, 10))
    for spec in args.runs:
        label, _, name = spec.rpartition("=")
        path = Path(name)
        label = label or path.stem
        rows = [row for row in read_jobs(path) if row["starting_time"] >= 0]
        if not rows:
            raise SystemExit(f"{path}: no job started")
        end = max(row["finish_time"] for row in rows)
        busy = [(row["starting_time"], row["processors"]) for row in rows]
        busy += [(row["finish_time"], -row["processors"]) for row in rows]
        centres, mean_busy = binned_mean(*step_series(busy), end, args.bins)
        util_ax.plot(centres, [b / args.procs for b in mean_busy], label=label)
        waiting = [(row["submission_time"], 1) for row in rows] + [(row["starting_time"], -1) for row in rows]
        times, queue = step_series(waiting)
        queue_ax.step(times, queue, where="post", label=label)
        stretches = sorted(row["stretch"] for row in rows if row["success"] == "1")
        cdf_ax.step(stretches, [(k + 1) / len(stretches) for k in range(len(stretches))], where="post", label=label)
    util_ax.set_ylabel("utilisation (busy / m)")
    queue_ax.set_ylabel("queue length (jobs waiting)")
    queue_ax.set_xlabel("time (s)")
    util_ax.set_xlabel("time (s)")
    cdf_ax.set_xscale("log")
    cdf_ax.set_xlabel("stretch (turnaround / reference time)")
    cdf_ax.set_ylabel("share of jobs")
    for ax in (util_ax, queue_ax, cdf_ax):
        ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    plt.close(fig)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
