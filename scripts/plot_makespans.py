#!/usr/bin/python3
"""Fig.-3(a)-style bars: makespan / L_min(d) per algorithm: predicted by the paper's model, predicted by the
contention-aware model (when the instance had a bandwidth model), and observed, side by side.

Input: the demo's results.csv (rows of configuration "cores+fast"), or launch journals (one per algorithm).

    scripts/plot_makespans.py out/results.csv --output makespans.png
    scripts/plot_makespans.py runs/*.jsonl --output makespans.png
"""
import argparse
import csv
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def from_csv(path):
    rows, emulated = [], False
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row.get("configuration", "cores+fast") != "cores+fast":
                continue
            emulated = emulated or row.get("emulated", "false").lower() == "true"
            contention = row.get("predicted_makespan_contention_s") or None
            rows.append((row["algorithm"], float(row["lower_bound_s"]), float(row["predicted_makespan_s"]),
                         float(row["observed_makespan_s"]), float(contention) if contention else None))
    return rows, emulated


def from_journal(path):
    header, footer = None, None
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue  # a cut-short last line
            if event["event"] == "batch_start" and header is None:
                header = event
            elif event["event"] == "batch_end":
                footer = event
    if header is None or footer is None:
        raise SystemExit(f"{path}: not a finished cosched journal")
    return (header["algorithm"], header["lower_bound"], header["predicted_makespan"],
            footer["observed_makespan"], header.get("predicted_makespan_contention")), bool(header.get("emulated"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", help="results.csv or journals (*.jsonl)")
    parser.add_argument("--output", required=True, help="image file to write (png, pdf, svg)")
    args = parser.parse_args()

    rows, emulated = [], False
    for path in args.inputs:
        if path.endswith(".csv"):
            more, flag = from_csv(path)
            rows += more
        else:
            row, flag = from_journal(path)
            rows.append(row)
        emulated = emulated or flag
    if not rows:
        raise SystemExit("nothing to plot")
    names = [r[0] for r in rows]
    def normalised(value, bound):
        return value / bound if value is not None and bound > 0 else 0

    series = [("predicted (paper model)", [normalised(r[2], r[1]) for r in rows])]
    if any(r[4] is not None for r in rows):
        series.append(("predicted (contention-aware)", [normalised(r[4], r[1]) for r in rows]))
    series.append(("observed", [normalised(r[3], r[1]) for r in rows]))
    positions = range(len(rows))
    width = 0.8 / len(series)
    figure, axis = plt.subplots(figsize=(max(6, 1.1 * len(rows)), 4))
    for k, (label, values) in enumerate(series):
        offset = (k - (len(series) - 1) / 2) * width
        axis.bar([p + offset for p in positions], values, width, label=label)
    axis.axhline(1.0, color="black", linewidth=0.8)
    axis.set_xticks(list(positions))
    axis.set_xticklabels(names, rotation=30, ha="right")
    axis.set_ylabel("makespan / L_min(d)")
    axis.set_title("Normalised makespans" + (" (EMULATED fast tier)" if emulated else ""))
    axis.legend()
    figure.tight_layout()
    figure.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
