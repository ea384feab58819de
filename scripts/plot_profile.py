#!/usr/bin/python3
"""Plots a cosched profile CSV (docs/formats.md, "Profile CSV").

For every kernel x footprint it writes into OUTDIR:
  <kernel>-<MiB>MiB-heatmap.png  median time over cores x fast chunks (log colour scale)
  <kernel>-<MiB>MiB-curves.png   time vs fast chunks for several core counts, with the min-max spread
                                 (the style of Fig. 2 in Sun et al., RR-9140)

Usage: scripts/plot_profile.py PROFILE.csv OUTDIR [--cores 1,2,4,8,16,32,64]
Images are generated on demand; do not commit them.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as colors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

COLUMNS = ["kernel", "footprint_bytes", "cores", "chunks", "time_s", "time_min_s", "time_max_s", "reps", "gbs"]


def read_profile(path):
    table = pd.read_csv(path)
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        sys.exit(f"plot_profile: {path} is not a profile CSV (missing columns: {', '.join(missing)})")
    return table


def pick_core_counts(available, requested, how_many=6):
    if requested:
        chosen = [c for c in requested if c in available]
        if not chosen:
            sys.exit(f"plot_profile: none of --cores {requested} is in the profile (has {available})")
        return chosen
    if len(available) <= how_many:
        return available
    step = (len(available) - 1) / (how_many - 1)
    return sorted({available[round(i * step)] for i in range(how_many)})


def plot_heatmap(group, title, path):
    grid = group.pivot_table(index="cores", columns="chunks", values="time_s")
    figure, axes = plt.subplots(figsize=(8, 5))
    image = axes.imshow(grid.values, aspect="auto", origin="lower", cmap="viridis_r",
                        norm=colors.LogNorm(vmin=grid.min().min(), vmax=grid.max().max()))
    axes.set_xticks(range(len(grid.columns)), [str(c) for c in grid.columns])
    step = max(1, len(grid.index) // 16)
    axes.set_yticks(range(0, len(grid.index), step), [str(c) for c in grid.index[::step]])
    axes.set_xlabel("fast memory chunks")
    axes.set_ylabel("cores")
    axes.set_title(title)
    figure.colorbar(image, ax=axes, label="median time per pass (s)")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def plot_curves(group, title, core_counts, path):
    figure, axes = plt.subplots(figsize=(7, 5))
    for cores in core_counts:
        curve = group[group["cores"] == cores].sort_values("chunks")
        line, = axes.plot(curve["chunks"], curve["time_s"], marker="o", markersize=3, label=f"{cores} cores")
        axes.fill_between(curve["chunks"], curve["time_min_s"], curve["time_max_s"], color=line.get_color(),
                          alpha=0.2, linewidth=0)
    axes.set_xlabel("fast memory chunks")
    axes.set_ylabel("time per pass (s)")
    axes.set_yscale("log")
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profile", help="profile CSV written by `cosched profile`")
    parser.add_argument("outdir", help="folder for the PNG files (created if missing)")
    parser.add_argument("--cores", help="core counts for the curves, e.g. 1,2,4,8 (default: up to 6 spread out)")
    args = parser.parse_args()
    requested = [int(c) for c in args.cores.split(",")] if args.cores else []

    table = read_profile(args.profile)
    os.makedirs(args.outdir, exist_ok=True)
    written = 0
    for (kernel, footprint), group in table.groupby(["kernel", "footprint_bytes"]):
        mib = footprint / 2**20
        stem = os.path.join(args.outdir, f"{kernel}-{mib:g}MiB")
        title = f"{kernel}, footprint {mib:g} MiB"
        plot_heatmap(group, title, stem + "-heatmap.png")
        core_counts = pick_core_counts(sorted(group["cores"].unique().tolist()), requested)
        plot_curves(group, title, core_counts, stem + "-curves.png")
        written += 2
    print(f"plot_profile: {written} images in {args.outdir}")


if __name__ == "__main__":
    main()
