#!/usr/bin/python3
"""DBOS near rho = 1 (issue 26, part 4): the mean stretch of DBOS on SDSC Par 96 (first 8,000 jobs, Downey-moldable,
m = 512, seed 000 Sec. 7) as a curve over the online factor rho and the Downey seeds, through the built `cosched
online`. Prints per-rho medians and the per-seed values (the spread is the point: the dependence on rho is
chaotic), writes dbos_rho.json and, with matplotlib, dbos_rho.png into --out. Measures, never asserts.

    bench/dbos_rho.py --seeds 1 2 3 4 5
"""

import argparse
import json
import statistics
import sys

from online_cli import add_common_arguments, check_built, pyplot, run_online

TRACE = "SDSC-Par-1996-3.1-cln.swf.gz"
RHOS = (1.0, 1.01, 1.02, 1.05, 1.1, 1.25, 1.5, 2.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--rhos", type=float, nargs="+", default=list(RHOS))
    parser.add_argument("--label", default="dbos_rho", help="name of the outputs (a variant's build: another label)")
    args = parser.parse_args()
    check_built(args.cosched)
    trace = args.shared / "data" / "traces" / TRACE
    if not trace.exists():
        print(f"{trace} not found: this measurement needs the workplace's shared/ folder; skipped")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    results = {}
    for rho in args.rhos:
        for seed in args.seeds:
            r = run_online(args.cosched, ["--policy", "dbos", "--rho", str(rho), "--trace", str(trace), "--jobs", "8000",
                                          "--procs", "512", "--downey-seed", str(seed)])
            results[f"{rho}/{seed}"] = {"rho": rho, "seed": seed, "mean_stretch": r["mean_stretch"],
                                        "max_stretch": r["max_stretch"], "mean_flow": r["mean_flow"],
                                        "makespan": r["makespan"]}
            print(f"rho {rho} seed {seed}: mean stretch {r['mean_stretch']:.3g}", flush=True)
    lines = ["| rho | median mean stretch | min | max | per seed (" + ", ".join(map(str, args.seeds)) + ") |",
             "|---|---|---|---|---|"]
    for rho in args.rhos:
        values = [results[f"{rho}/{seed}"]["mean_stretch"] for seed in args.seeds]
        lines.append(f"| {rho:g} | {statistics.median(values):.3g} | {min(values):.3g} | {max(values):.3g} | "
                     + ", ".join(f"{v:.3g}" for v in values) + " |")
    print("\n".join(lines))
    (args.out / f"{args.label}.json").write_text(json.dumps(results, indent=1))
    plt = pyplot(print)
    if plt is not None:
        fig, ax = plt.subplots(figsize=(6.5, 4.5))
        for seed in args.seeds:
            ax.plot(args.rhos, [results[f"{rho}/{seed}"]["mean_stretch"] for rho in args.rhos], "o-", alpha=0.6,
                    label=f"Downey seed {seed}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("online factor rho")
        ax.set_ylabel("mean stretch")
        ax.set_title("DBOS on SDSC Par 96, 8,000 jobs, m = 512")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(args.out / f"{args.label}.png", dpi=110)
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
