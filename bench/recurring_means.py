#!/usr/bin/env python3
"""The means over later batches of knowledge_study --recurring's rows, from its PREFIX-recurring.csv: per row, the
plan's true makespan over the exhaustively profiled plan's (mean and worst), the profiling's wall time and the runs'
serial sum over the makespan (means of the per-batch ratios, as the study's table takes them), the makespan and the
makespan with the profiling over the best naive way's, and how many batches met both KNL goals of issue 39
(profiling <= 10 % of the makespan, plan <= 1.03 x exhaustive); per node and row. Then, for the rows that explored
(CSVs with unexplored_makespan_s), what the exploration's moves did to their own batches: the makespan over the same
plan without them (geometric mean over the batches that explored), and in how many they made it shorter or longer."""
import argparse
import csv
import math
from collections import defaultdict


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("csv", nargs="+", help="PREFIX-recurring.csv (several: their batches pooled)")
    parser.add_argument("--first-batch", type=int, default=1, help="0-based: the batches from this one on (default 1: "
                        "batches 2 and later, after the naive first batch)")
    parser.add_argument("--last-batch", type=int, default=None, help="0-based: up to this batch (default: the last)")
    args = parser.parse_args()
    by_row = defaultdict(list)
    order = []
    for path in args.csv:
        with open(path, newline="") as f:
            for line in csv.DictReader(f):
                batch = int(line["batch"])
                if batch < args.first_batch or (args.last_batch is not None and batch > args.last_batch):
                    continue
                key = (line["node"], line["row"])
                if key not in by_row:
                    order.append(key)
                by_row[key].append(line)
    print(f"{'node':<12} {'row':<17} {'batches':>7} {'plan/exh':>8} {'worst':>6} {'prof/mk':>8} {'ser/mk':>7} "
          f"{'runs':>5} {'mk/naive':>8} {'total/nv':>8} {'goal':>6}")
    for node, row in order:
        lines = by_row[(node, row)]
        n = len(lines)
        ratio = [float(x["makespan_s"]) / float(x["exhaustive_makespan_s"]) for x in lines]
        wall = [float(x.get("profiling_wall_s") or x["profiling_serial_s"]) / float(x["makespan_s"]) for x in lines]
        serial = [float(x["profiling_serial_s"]) / float(x["makespan_s"]) for x in lines]
        runs = sum(int(x["runs"]) for x in lines) / n
        naive = [float(x["makespan_s"]) / float(x["naive_makespan_s"]) for x in lines]
        total = [(float(x["makespan_s"]) + float(x.get("profiling_wall_s") or x["profiling_serial_s"])) /
                 float(x["naive_makespan_s"]) for x in lines]
        goal = sum(1 for r, w in zip(ratio, wall) if r <= 1.03 and w <= 0.1)
        print(f"{node:<12} {row:<17} {n:>7} {sum(ratio) / n:>8.3f} {max(ratio):>6.3f} {100 * sum(wall) / n:>7.1f}% "
              f"{100 * sum(serial) / n:>6.1f}% {runs:>5.1f} {sum(naive) / n:>8.3f} {sum(total) / n:>8.3f} "
              f"{goal:>3}/{n:<2}")
    for node, row in order:
        moved = [float(x["makespan_s"]) / float(x["unexplored_makespan_s"]) for x in by_row[(node, row)]
                 if float(x.get("unexplored_makespan_s") or 0) > 0]
        if moved:
            mean = math.exp(sum(math.log(r) for r in moved) / len(moved))
            print(f"{node} {row}: exploring, {len(moved)} batches: makespan / without its moves {mean:.4f} "
                  f"(shorter in {sum(r < 1 - 1e-9 for r in moved)}, longer in {sum(r > 1 + 1e-9 for r in moved)})")


if __name__ == "__main__":
    main()
