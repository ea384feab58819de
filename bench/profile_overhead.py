#!/usr/bin/env python3
"""The stream measurer's overhead, A/B: the same sweeps through two cosched builds, alternated in one run.

The overhead of a sweep is its wall time over its kernel passes, minus 1 (the sidecar's `sweep.overhead`): the
allocation, first touch, validation, team starts, CSV and progress, all charged to the profiler. Each round runs
every sweep once through each build, the order swapped every round (a process that follows an idle spell pays
for memory the hypervisor took back: docs/profiler.md, "Measured"), and the table gives min / median / max per
build and the median over the rounds of the ratio of wall times (after / before). Where a build records it
(sidecar `sessions`), the median overhead is split into allocation and first touch, validation, and the rest.

    bench/profile_overhead.py --before ../main/build/bin/cosched --after build/bin/cosched --rounds 3
    bench/profile_overhead.py --sweeps quick --rounds 1      # a few seconds: checks the script and the build

Sweeps (--sweeps, comma-separated): readme (the stream sweep the README's table showed until issue 24: triad,
64 and 256 MiB, chunks 0..20, 3 reps), triad-local (configs/profiles/
triad-local.toml), stream (the six STREAM kernels), stencil, spmv, gemm, gups (these five as in docs/profiler.md,
"The roofline kernels": 96 MiB, cores 1-2, chunks 0..6, 10 reps after 3 warm-ups), quick (a small triad and
stencil sweep).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCAL = os.path.join(ROOT, "configs", "platforms", "local.toml")


def roofline(kernel, cores):
    return ["--platform", LOCAL, "--kernels", kernel, "--footprints-mib", "96", "--cores", cores,
            "--chunks", "0..6", "--reps", "10", "--warmup", "3"]


def sweeps(cores):
    return {
        "readme": ["--kernels", "triad", "--footprints-mib", "64,256", "--cores", cores, "--chunks", "0..20",
                   "--reps", "3"],
        "triad-local": ["--config", os.path.join(ROOT, "configs", "profiles", "triad-local.toml"), "--cores", cores],
        "stream": roofline("write,ddot,copy,scale,add,triad", cores),
        "stencil": roofline("stencil", cores),
        "spmv": roofline("spmv", cores),
        "gemm": roofline("gemm", cores),
        "gups": roofline("gups", cores),
        "quick": ["--platform", LOCAL, "--kernels", "triad,stencil", "--footprints-mib", "16", "--cores", cores,
                  "--chunks", "0..2", "--reps", "2", "--warmup", "1"],
    }


def run_sweep(cosched, arguments, folder):
    """One sweep through one build: the sidecar's sweep section and, if the build records them, its sessions."""
    csv = os.path.join(folder, "p.csv")
    # The stream measurer named, not left to the default (the process measurer since issue 39).
    subprocess.run([cosched, "profile", "--measurer", "stream", *arguments, "--quiet", "--force", "-o", csv],
                   check=True)
    with open(os.path.join(folder, "p.json")) as sidecar:
        data = json.load(sidecar)
    return data["sweep"], data.get("sessions")


def spread(values, scale=1.0, digits=1):
    low, mid, high = (scale * min(values), scale * statistics.median(values), scale * max(values))
    return f"{mid:.{digits}f} ({low:.{digits}f}-{high:.{digits}f})"


def breakdown(runs):
    """The median run's overhead split into preparation, validation and the rest, in % of its kernel time."""
    with_sessions = [(sweep, sessions) for sweep, sessions in runs if sessions is not None]
    if not with_sessions:
        return "-"
    sweep, sessions = sorted(with_sessions, key=lambda run: run[0]["overhead"])[len(with_sessions) // 2]
    kernel = sweep["kernel_s"]
    other = sweep["wall_s"] - kernel - sessions["preparation_s"] - sessions["validation_s"]
    return (f"first touch {100 * sessions['preparation_s'] / kernel:.1f} + validation "
            f"{100 * sessions['validation_s'] / kernel:.1f} + rest {100 * other / kernel:.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--after", default=os.path.join(ROOT, "build", "bin", "cosched"), help="the build under test")
    parser.add_argument("--before", help="the build to compare with (e.g. main's, built in another folder)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sweeps", default="readme,stream,stencil,spmv,gemm,gups")
    args = parser.parse_args()
    cores = "1,2" if len(os.sched_getaffinity(0)) >= 2 else "1"
    known = sweeps(cores)
    chosen = args.sweeps.split(",")
    unknown = [name for name in chosen if name not in known]
    if unknown or args.rounds < 1:
        parser.error(f"unknown sweep(s) {','.join(unknown)} (known: {','.join(known)})" if unknown
                     else "--rounds must be at least 1")
    builds = {"after": os.path.abspath(args.after)}
    if args.before:
        builds["before"] = os.path.abspath(args.before)
    for name, path in builds.items():
        if not os.access(path, os.X_OK):
            parser.error(f"--{name} {path}: no such executable")
    # gemm's OpenBLAS picks AVX2 kernels on this CPU unless told (docs/stream_bench.md, "OpenBLAS and Zen 5").
    with open("/proc/cpuinfo") as cpuinfo:
        if " avx512f" in cpuinfo.read():
            os.environ.setdefault("OPENBLAS_CORETYPE", "SkylakeX")

    load_before = os.getloadavg()
    runs = {(sweep, build): [] for sweep in chosen for build in builds}
    order = list(builds)
    with tempfile.TemporaryDirectory() as folder:
        for round_index in range(args.rounds):
            for sweep in chosen:
                for build in order if round_index % 2 == 0 else reversed(order):
                    runs[(sweep, build)].append(run_sweep(builds[build], known[sweep], folder))
    load_after = os.getloadavg()

    print(f"{args.rounds} round(s), cores {cores}; load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after")
    for name, path in builds.items():
        print(f"{name}: {path}")
    print("sweep        build   overhead % median (min-max)   kernel s median   where the overhead went (%)")
    for sweep in chosen:
        for build in builds:
            sweep_runs = runs[(sweep, build)]
            overheads = [s["overhead"] for s, _ in sweep_runs]
            kernels = [s["kernel_s"] for s, _ in sweep_runs]
            print(f"{sweep:12} {build:7} {spread(overheads, 100):28} {statistics.median(kernels):8.2f}          "
                  f"{breakdown(sweep_runs)}")
        if "before" in builds:
            ratios = [a["wall_s"] / b["wall_s"] for (a, _), (b, _) in zip(runs[(sweep, "after")],
                                                                          runs[(sweep, "before")])]
            print(f"{sweep:12} wall after / before: {spread(ratios, 1.0, 3)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
