#!/usr/bin/python3
"""Gantt chart of a cosched launch journal: planned (top) vs observed (bottom), cores on the y axis, one colour
per task. Planned tasks have core counts only; they are drawn on the lowest free cores in planned-start order.

    scripts/plot_gantt.py run.jsonl --output gantt.png
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_journal(path):
    events = []
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):  # a cut-short last line (the launcher was killed): ignored
                print(f"{path}:{number}: truncated last line ignored", file=sys.stderr)
                continue
            raise SystemExit(f"{path}:{number}: not JSON")
    return events


def planned_bars(header):
    """Planned intervals on concrete cores: lowest free cores at each planned start."""
    plan = sorted(header.get("plan", []), key=lambda t: (t["planned_start"], t["task"]))
    cores = header["resources"][0]["capacity"]
    busy_until = [0.0] * cores
    bars = []
    for task in plan:
        start, end = task["planned_start"], task["planned_start"] + task["predicted_duration"]
        free = [c for c in range(cores) if busy_until[c] <= start + 1e-9]
        chosen = free[: task["alloc"][0]] or list(range(task["alloc"][0]))
        for core in chosen:
            busy_until[core] = end
        bars.append((task["task"], chosen, start, end))
    return bars


def observed_bars(events):
    starts, bars = {}, []
    for event in events:
        if event["event"] == "batch_start" and bars:
            break  # the first segment only: resumed segments have their own time origin
        if event["event"] == "start":
            starts[event["task"]] = event
        elif event["event"] == "end" and event["task"] in starts:
            start = starts[event["task"]]
            bars.append((event["task"], start.get("cores", []), start["t"], event["t"], event.get("status", "")))
    return bars


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("journal")
    parser.add_argument("--output", required=True, help="image file to write (png, pdf, svg)")
    args = parser.parse_args()

    events = read_journal(args.journal)
    headers = [e for e in events if e["event"] == "batch_start"]
    if not headers:
        raise SystemExit(f"{args.journal}: no batch_start event")
    header = headers[0]
    tasks = [t["task"] for t in header.get("plan", [])]
    palette = plt.get_cmap("tab20")
    colour = {task: palette(i % 20) for i, task in enumerate(tasks)}
    cores = header["resources"][0]["capacity"]

    figure, axes = plt.subplots(2, 1, figsize=(12, 2.2 + 0.5 * cores * 2), sharex=True)
    for task, chosen, start, end in planned_bars(header):
        for core in chosen:
            axes[0].barh(core, end - start, left=start, color=colour.get(task), edgecolor="black", linewidth=0.3)
    for task, chosen, start, end, status in observed_bars(events):
        for core in chosen:
            axes[1].barh(core, end - start, left=start, color=colour.get(task, "grey"), edgecolor="black",
                         linewidth=0.3, hatch="" if status == "ok" else "xx")
    emulated = " (EMULATED fast tier)" if header.get("emulated") else ""
    axes[0].set_title(f"{header.get('algorithm', '?')}: planned{emulated}")
    axes[1].set_title(f"observed on {header.get('host', '?')} ({header.get('policy', '?')} policy)")
    for axis in axes:
        axis.set_ylabel("core")
        axis.set_yticks(range(cores))
        axis.invert_yaxis()
    axes[1].set_xlabel("seconds from batch start")
    figure.tight_layout()
    figure.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
