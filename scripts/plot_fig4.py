#!/usr/bin/python3
"""Draws Fig. 4 of Sun et al. (RR-9140, Sec. 5.4) from `cosched simulate --csv` files.

  (a) makespan / L_min(d) per algorithm, one group of box plots per number of resource types d
  (b) scheduling time per algorithm (log scale), same grouping

Typical use (one CSV per d, as in the paper: capacities 64, 32, 16, 8):

  for r in 64 64,32 64,32,16 64,32,16,8; do
    build/bin/cosched simulate --resources $r --instances 100 --csv out/fig4-d$(echo $r | tr -cd , | wc -c).csv
  done
  scripts/plot_fig4.py out/fig4-*.csv --output out/fig4      # writes out/fig4a.png and out/fig4b.png

Images are generated on demand and never committed.
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

REQUIRED = {"instance", "d", "algorithm", "ratio", "seconds"}


def load(paths):
    frames = []
    for path in paths:
        try:
            frame = pd.read_csv(path)
        except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as error:
            sys.exit(f"{path}: cannot read: {error}")
        missing = REQUIRED - set(frame.columns)
        if missing:
            sys.exit(f"{path}: not a `cosched simulate --csv` file (missing columns: {', '.join(sorted(missing))})")
        frames.append(frame)
    if not frames:
        sys.exit("no CSV given")
    return pd.concat(frames, ignore_index=True)


def grouped_boxplot(axis, data, column, algorithms, dims):
    width = 0.8 / len(algorithms)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, algorithm in enumerate(algorithms):
        values, positions = [], []
        for g, d in enumerate(dims):
            subset = data[(data["d"] == d) & (data["algorithm"] == algorithm)][column]
            if not subset.empty:
                values.append(subset.to_numpy())
                positions.append(g + (k - (len(algorithms) - 1) / 2) * width)
        if not values:
            continue
        boxes = axis.boxplot(values, positions=positions, widths=width * 0.9, patch_artist=True,
                             showfliers=True, flierprops={"markersize": 2},
                             medianprops={"color": "black"})
        for patch in boxes["boxes"]:
            patch.set_facecolor(colours[k % len(colours)])
            patch.set_alpha(0.7)
        axis.plot([], [], color=colours[k % len(colours)], linewidth=6, alpha=0.7, label=algorithm)
    axis.set_xticks(range(len(dims)))
    axis.set_xticklabels([f"d = {d}" for d in dims])
    axis.legend(fontsize="small")
    axis.grid(axis="y", alpha=0.3)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="files written by `cosched simulate --csv`")
    parser.add_argument("--output", default="fig4", help="prefix of the images (default: fig4 -> fig4a.png, fig4b.png)")
    args = parser.parse_args()

    data = load(args.csv)
    dims = sorted(data["d"].unique())
    algorithms = list(dict.fromkeys(data["algorithm"]))  # first-seen order, as given to --algorithms

    figure, axis = plt.subplots(figsize=(8, 4.5))
    grouped_boxplot(axis, data, "ratio", algorithms, dims)
    axis.set_ylabel("makespan / L_min(d)")
    axis.set_title("Fig. 4(a): normalised makespan")
    figure.tight_layout()
    figure.savefig(f"{args.output}a.png", dpi=150)

    figure, axis = plt.subplots(figsize=(8, 4.5))
    grouped_boxplot(axis, data, "seconds", algorithms, dims)
    axis.set_yscale("log")
    axis.set_ylabel("scheduling time (s)")
    axis.set_title("Fig. 4(b): running time of the algorithms")
    figure.tight_layout()
    figure.savefig(f"{args.output}b.png", dpi=150)
    print(f"wrote {args.output}a.png and {args.output}b.png")


if __name__ == "__main__":
    main()
