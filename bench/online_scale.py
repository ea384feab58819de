#!/usr/bin/python3
"""The online scale curve (issue 25): whole `cosched online --synthetic` processes, m = 300, load 250, Delta 10,
seed 1, for DASEDF and EASY at n = 10^4 ... 10^7 jobs. For each run: wall time, CPU time (user + system, of the
child: what the run costs when the machine is shared), peak memory, and the time in the policy as the JSON reports
it. Prints a Markdown table, writes online_scale.json and, with matplotlib, online_scale.png into --out. Measures,
never asserts; say how busy the machine was (uptime) next to the figures.

    bench/online_scale.py --jobs 10000 100000 1000000 10000000
"""

import argparse
import json
import resource
import sys
import time
from pathlib import Path

from online_cli import add_common_arguments, check_built, pyplot, run_online


def measured(cosched: Path, policy: str, jobs: int) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    result = run_online(cosched, ["--policy", policy, "--synthetic", "--jobs", str(jobs), "--procs", "300",
                                  "--load", "250", "--seed", "1"])
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"policy": policy, "jobs": jobs, "wall_s": wall,
            "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "system_s": after.ru_stime - before.ru_stime,
            "peak_mib": after.ru_maxrss / 1024,  # the largest child so far: runs go from small to large
            "policy_s": result["scheduling_seconds"], "max_stretch": result["max_stretch"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--jobs", type=int, nargs="+", default=[10_000, 100_000, 1_000_000, 10_000_000])
    parser.add_argument("--policies", nargs="+", default=["dasedf", "easy"])
    args = parser.parse_args()
    check_built(args.cosched)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for jobs in sorted(args.jobs):
        for policy in args.policies:
            rows.append(measured(args.cosched, policy, jobs))
            r = rows[-1]
            print(f"{policy} n={jobs}: wall {r['wall_s']:.2f} s, cpu {r['cpu_s']:.2f} s, policy {r['policy_s']:.2f} s",
                  flush=True)
    table = ["| policy | jobs | wall (s) | CPU user + system (s) | of which system (s) | peak memory (MiB) | "
             "in the policy (s) | max stretch |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        table.append(f"| {r['policy']} | {r['jobs']:,} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['system_s']:.2f} | "
                     f"{r['peak_mib']:.0f} | {r['policy_s']:.2f} | {r['max_stretch']:.4g} |")
    print("\n".join(table))
    (args.out / "online_scale.json").write_text(json.dumps(rows, indent=1))
    plt = pyplot(print)
    if plt is not None:
        fig, ax = plt.subplots(figsize=(6.5, 4.5))
        for policy in args.policies:
            mine = [r for r in rows if r["policy"] == policy]
            ax.loglog([r["jobs"] for r in mine], [r["wall_s"] for r in mine], "o-", label=f"{policy} wall")
            ax.loglog([r["jobs"] for r in mine], [r["cpu_s"] for r in mine], "s--", label=f"{policy} CPU")
        ax.loglog([1e6, 1e7], [3, 30], "k:", label="goal (3 s at 10^6, 30 s at 10^7)")
        ax.set_xlabel("jobs")
        ax.set_ylabel("seconds (whole process)")
        ax.set_title("cosched online --synthetic, m = 300, load 250")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.out / "online_scale.png", dpi=110)
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
