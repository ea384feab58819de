#!/usr/bin/python3
"""Draws the knowledge study (bench/knowledge_study, docs/knowledge.md) from its `--csv PREFIX` files.

One panel per simulated node: each profiling strategy's cost (profiling seconds / the batch's makespan, one run
after the other, log scale) against the quality of its plan (its makespan / the exhaustively profiled plan's, both
run on the true times); one faint point per batch, the strategy's mean as a large marker. The dashed lines are the
goals of issue 39 on the 64-core KNL: profiling <= 10 % of the makespan, plans within 3 %.

  build/bin/knowledge_study --batches 6 --csv out/knowledge
  bench/knowledge_plot.py out/knowledge-strategies.csv --output out/knowledge.png

Images are generated on demand and never committed.
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

REQUIRED = {"node", "batch", "strategy", "profiling_serial_s", "makespan_s", "exhaustive_makespan_s"}
MARKERS = {"oracle": "*", "exhaustive": "s", "reseeded": "D", "sparse": "^", "short-runs": "o",
           "adaptive": "v", "learning": "P"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="PREFIX-strategies.csv written by knowledge_study --csv PREFIX")
    parser.add_argument("--output", required=True, help="the PNG to write")
    args = parser.parse_args()
    data = pd.read_csv(args.csv)
    missing = REQUIRED - set(data.columns)
    if missing:
        sys.exit(f"{args.csv}: not a knowledge_study strategies CSV (missing {', '.join(sorted(missing))})")
    data = data[data["strategy"] != "oracle"].copy()  # no profiling: no point on a log axis
    data["cost"] = data["profiling_serial_s"] / data["makespan_s"]
    data["quality"] = data["makespan_s"] / data["exhaustive_makespan_s"]
    nodes = list(dict.fromkeys(data["node"]))
    figure, axes = plt.subplots(1, len(nodes), figsize=(5 * len(nodes), 4.2), sharey=True, squeeze=False)
    for axis, node in zip(axes[0], nodes):
        rows = data[data["node"] == node]
        for strategy, group in rows.groupby("strategy", sort=False):
            marker = MARKERS.get(strategy, "x")
            line = axis.scatter(group["cost"], group["quality"], marker=marker, alpha=0.25)
            axis.scatter(group["cost"].mean(), group["quality"].mean(), marker=marker, s=120,
                         color=line.get_facecolor()[0], edgecolor="black", label=strategy, alpha=1.0)
        axis.axvline(0.10, linestyle="--", color="grey", linewidth=0.8)
        axis.axhline(1.03, linestyle="--", color="grey", linewidth=0.8)
        axis.set_xscale("log")
        axis.set_title(node)
        axis.set_xlabel("profiling / batch makespan (serial)")
    axes[0][0].set_ylabel("plan makespan / exhaustive plan's")
    axes[0][-1].legend(loc="upper right", fontsize="small")
    figure.tight_layout()
    figure.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
