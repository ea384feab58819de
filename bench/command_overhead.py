#!/usr/bin/env python3
"""Overhead of profiling a command with `cosched profile --command` against running it bare.

The same program (tests/programs/memory_probe: allocate and touch N MiB) runs REPS times bare, pinned to one core
with taskset, and then REPS times through `cosched profile --command ... --cores 1 --reps REPS --warmup 0`, which
forks, binds, places and reaps each run and writes the CSV and sidecar. The overhead is the profile's whole wall
time (process start of cosched included) over the bare runs' total, minus 1; the goal is <= 5 %. The two are
interleaved ROUNDS times and the medians compared, since this machine's memory bandwidth swings between runs.

    bench/command_overhead.py [--build build] [--mib 256] [--reps 10] [--rounds 3]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def bare(probe, mib, reps):
    start = time.perf_counter()
    for _ in range(reps):
        subprocess.run(["taskset", "-c", "0", probe, "--mib", str(mib)], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def profiled(cosched, probe, mib, reps, folder):
    csv = os.path.join(folder, "p.csv")
    start = time.perf_counter()
    subprocess.run([cosched, "profile", "--command", f"{probe} --mib {mib}", "--name", "probe", "--cores", "1",
                    "--reps", str(reps), "--warmup", "0", "--quiet", "--force", "-o", csv], check=True)
    wall = time.perf_counter() - start
    with open(os.path.join(folder, "p.json")) as sidecar:
        sweep = json.load(sidecar)["sweep"]
    return wall, sweep


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--mib", type=int, default=256)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cosched = os.path.join(args.build, "bin", "cosched")
    probe = os.path.abspath(os.path.join(args.build, "bin", "memory_probe"))
    bare_s, profile_s, inner = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.rounds):
            bare_s.append(bare(probe, args.mib, args.reps))
            wall, sweep = profiled(cosched, probe, args.mib, args.reps, folder)
            profile_s.append(wall)
            inner.append(sweep)
    b, p = statistics.median(bare_s), statistics.median(profile_s)
    print(f"command: memory_probe --mib {args.mib}, {args.reps} runs per round, {args.rounds} rounds")
    print(f"bare (taskset):        median {b:.3f} s  ({', '.join(f'{x:.3f}' for x in bare_s)})")
    print(f"cosched profile:       median {p:.3f} s  ({', '.join(f'{x:.3f}' for x in profile_s)})")
    print(f"overhead (whole cosched invocation vs bare): {100 * (p / b - 1):+.1f} %  (goal <= 5 %)")
    own = statistics.median(s["profiler_overhead"] for s in inner)
    sweep_overhead = statistics.median(s["overhead"] for s in inner)
    print(f"sidecar: sweep overhead over the runs {100 * sweep_overhead:.2f} %, profiler's own {100 * own:.3f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
