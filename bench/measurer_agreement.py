#!/usr/bin/python3
"""Do the measurers agree on the cost of a pass? The `stream` measurer against `process --passes 1,20` (issue 24).

The `stream` measurer times warm passes of a kernel in this process; the `process` measurer times whole
`stream_bench` processes as `cosched launch` runs them, at 1 and 20 passes, and splits each point's time into the
cost of a pass (`time_s`) and what a run pays whatever its passes (`fixed_s`: start-up, allocation, first touch,
validation). If both measure the same kernel, their `time_s` agree and `fixed_s` is all a launch adds.

For a few points — triad and copy, 64 and 256 MiB, 1 and 2 cores, 0 and 20 fast chunks of the emulated tier of
configs/platforms/local.toml — each round profiles every point with both measurers, one sweep each, the order
swapped every round (A/B alternating: a sweep that follows another runs on a machine in another state). Per point
it reports the ratio stream time_s / process time_s of each round (median, min, max over rounds) and the process
measurer's fixed_s (median, min, max).

    bench/measurer_agreement.py                  # 3 rounds, 3 timed reps per point (the lead's measurement)
    bench/measurer_agreement.py --quick          # seconds: one kernel, one footprint, 1 round, 1 rep

Measures, never asserts: stdout, and measurer_agreement.json in the output folder (docs/profiler.md, "Do the
measurers agree"). Python 3 standard library only.
"""

import argparse
import csv
import datetime
import json
import os
import socket
import statistics
import time
from pathlib import Path

from corun_fidelity import BenchError, Cosched, closing_line, run_main, stamped_folder, spread

ROOT = Path(__file__).resolve().parent.parent
PLATFORM = ROOT / "configs" / "platforms" / "local.toml"
MIB = 1 << 20
PASSES = "1,20"
MEASURERS = {
    "stream": ["--measurer", "stream"],
    "process": ["--measurer", "process", "--passes", PASSES],
}


def sweep_arguments(args) -> list:
    return ["--platform", PLATFORM, "--kernels", ",".join(args.kernels), "--footprints-mib",
            ",".join(str(m) for m in args.footprints_mib), "--cores", ",".join(str(c) for c in args.cores),
            "--chunks", ",".join(str(k) for k in args.chunks), "--reps", args.reps, "--warmup", args.warmup,
            "--quiet"]


def read_rows(path: Path) -> dict:
    """(kernel, footprint MiB, cores, chunks) -> (time_s, fixed_s or None) of the profile CSV's ok rows."""
    rows = {}
    with path.open(newline="") as handle:
        for row in csv.DictReader(handle):
            if row.get("status", "ok") != "ok":
                raise BenchError(f"{path}: {row['kernel']} {row['footprint_bytes']} B cores={row['cores']} "
                                 f"chunks={row['chunks']} failed ({row['status']})")
            key = (row["kernel"], int(row["footprint_bytes"]) // MIB, int(row["cores"]), int(row["chunks"]))
            fixed = row.get("fixed_s") or None
            rows[key] = (float(row["time_s"]), float(fixed) if fixed else None)
    return rows


def profile(cosched, folder: Path, measurer: str, args, round_number: int) -> dict:
    output = folder / f"round{round_number}-{measurer}.csv"
    started = time.time()
    cosched("profile", *MEASURERS[measurer], *sweep_arguments(args), "--force", "-o", output)
    print(f"  {measurer:8s} {time.time() - started:6.1f} s (load average {os.getloadavg()[0]:.2f})", flush=True)
    return read_rows(output)


def fixed_spread(values: list) -> dict:
    """corun_fidelity.spread divides by the median: a median fixed cost of 0 s (lost in the noise) keeps its range."""
    if statistics.median(values) > 0:
        return spread(values)
    return {"n": len(values), "values": values, "median": 0.0, "min": min(values), "max": max(values)}


def summarize(rounds: list) -> list:
    points = []
    for key in sorted(rounds[0]["stream"]):
        ratios = [r["stream"][key][0] / r["process"][key][0] for r in rounds]
        fixed = [r["process"][key][1] for r in rounds if r["process"][key][1] is not None]
        points.append({"kernel": key[0], "footprint_mib": key[1], "cores": key[2], "chunks": key[3],
                       "stream_time_s": [r["stream"][key][0] for r in rounds],
                       "process_time_s": [r["process"][key][0] for r in rounds],
                       "process_fixed_s": fixed,
                       "ratio_stream_over_process": spread(ratios),
                       "fixed_s": fixed_spread(fixed) if fixed else None})
    return points


def print_table(points: list) -> None:
    print(f"\n{'kernel':7s} {'MiB':>4s} {'cores':>5s} {'chunks':>6s} | {'stream/process time_s':>28s} | "
          f"{'process fixed_s (s)':>26s}")
    print(f"{'':26s} | {'median (min - max)':>28s} | {'median (min - max)':>26s}")
    for p in points:
        r = p["ratio_stream_over_process"]
        f = p["fixed_s"]
        fixed = f"{f['median']:.4f} ({f['min']:.4f} - {f['max']:.4f})" if f else "n/a"
        print(f"{p['kernel']:7s} {p['footprint_mib']:4d} {p['cores']:5d} {p['chunks']:6d} | "
              f"{r['median']:.3f} ({r['min']:.3f} - {r['max']:.3f}){'':9s} | {fixed:>26s}")
    all_ratios = [p["ratio_stream_over_process"]["median"] for p in points]
    print(f"\nover the {len(points)} points, the median per-point ratio: median {statistics.median(all_ratios):.3f}, "
          f"min {min(all_ratios):.3f}, max {max(all_ratios):.3f} (1 = the measurers agree on the cost of a pass)")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=Path, default=ROOT / "build" / "bin", help="folder of cosched and stream_bench")
    parser.add_argument("--output", type=Path, default=None,
                        help="output folder (default measurer-agreement-<UTC time>)")
    parser.add_argument("--rounds", type=int, default=3, help="A/B rounds (default 3)")
    parser.add_argument("--reps", type=int, default=3, help="timed reps per point and measurer (default 3)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed reps first (default 1)")
    parser.add_argument("--quick", action="store_true",
                        help="check the script: triad 64 MiB, 1 core, chunks 0 and 20, 1 round of 1 rep, no warm-up")
    args = parser.parse_args()
    if args.rounds < 1 or args.reps < 1 or args.warmup < 0:
        parser.error("--rounds and --reps must be >= 1, --warmup >= 0")
    args.kernels, args.footprints_mib, args.cores, args.chunks = ["triad", "copy"], [64, 256], [1, 2], [0, 20]
    if args.quick:
        args.kernels, args.footprints_mib, args.cores = ["triad"], [64], [1]
        args.rounds, args.reps, args.warmup = 1, 1, 0
    args.output = args.output or stamped_folder("measurer-agreement")
    return args


def main() -> int:
    args = parse_arguments()
    args.output.mkdir(parents=True, exist_ok=True)
    started = time.time()
    load_start = os.getloadavg()
    print(f"measurer agreement: stream vs process --passes {PASSES}, {args.rounds} round(s), kernels "
          f"{','.join(args.kernels)}, {args.footprints_mib} MiB, cores {args.cores}, chunks {args.chunks}, "
          f"{args.reps} rep(s); EMULATED fast tier ({PLATFORM.name}); load average {load_start[0]:.2f}; "
          f"output {args.output}", flush=True)
    rounds = []
    with (args.output / "commands.log").open("w") as log:
        cosched = Cosched(args.bin, log)
        for number in range(1, args.rounds + 1):
            order = ["stream", "process"] if number % 2 == 1 else ["process", "stream"]
            print(f"round {number}/{args.rounds}: {' then '.join(order)}", flush=True)
            rounds.append({m: profile(cosched, args.output, m, args, number) for m in order})
    points = summarize(rounds)
    print_table(points)
    line, load_end = closing_line(started, load_start)
    print("\n" + line)
    document = {"benchmark": "bench/measurer_agreement.py", "date_utc": datetime.datetime.utcnow().isoformat() + "Z",
                "host": socket.gethostname(), "platform": str(PLATFORM), "passes": PASSES, "rounds": args.rounds,
                "reps": args.reps, "warmup": args.warmup, "load_average": {"start": load_start, "end": load_end},
                "wall_s": time.time() - started, "points": points}
    (args.output / "measurer_agreement.json").write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {args.output / 'measurer_agreement.json'}")
    return 0


if __name__ == "__main__":
    run_main(main, "measurer_agreement")
