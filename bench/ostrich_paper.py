#!/usr/bin/python3
"""Reproduction of seed 002 (Emeras, Pinheiro, Rzadca, Trystram: fair scheduling for multiple submissions,
OStrich) through the built `cosched online`, as a user would run it (issue 14, part 5).

The LPC-EGEE log (Parallel Workloads Archive, LPC-EGEE-2004-1.2-cln), its longest failure-free period 6 Dec 2004 -
24 Jan 2005, 140 CPUs, users' campaigns detected with the MAX rule (Zakay & Feitelson), replayed with the jobs'
replayed open loop (every job at its logged submit time) and closed loop (--replay closed: each user's next campaign
released at the simulated completion of the previous one plus the logged think time, as the paper's model
requires: Sec. III) under OStrich, the baselines a batch-system user knows (FCFS, EASY, a Slurm-style fair share)
and the log's own schedule (policy `logged`: every job at its logged start), which is what the paper compares
OStrich with (the same under both replays: on the log's schedule every campaign ends as logged). Campaign stretch = flow / max(max_j (release_j + p_j) - first release, W/m), as
docs/online.md states. The paper's numbers are printed next to ours. Measures, never asserts. Writes
ostrich_paper.json, ostrich_paper.md and, with matplotlib, ostrich_cdf.png (the CDF, Figs. 5-6) and
ostrich_users.png (each user's median campaign stretch, Fig. 9) into --out. The trace is read from the
workplace's shared/ folder; without it the script says so and stops.
"""

import argparse
import json
import sys
from pathlib import Path

from online_cli import add_common_arguments, check_built, pyplot, run_online

TRACE = "LPC-EGEE-2004-1.2-cln.swf.gz"
POLICIES = ("ostrich", "logged", "fcfs", "easy", "fairshare")
REPLAYS = ("open", "closed")
# Sec. VI: mean campaign stretch with outliers (> 1000) removed; OStrich's shares at 1, < 1.4, < 2.15.
PAPER = {"ostrich": {"mean": 1.12, "at_1": 0.64, "below_1_4": 0.90, "below_2_15": 0.99},
         "logged": {"mean": 1.61}}


def run(cosched: Path, trace: Path, policy: str, replay: str, args) -> dict:
    return run_online(cosched, ["--policy", policy, "--trace", str(trace), "--campaigns", args.campaigns, "--from",
                                args.start, "--to", args.end, "--procs", str(args.procs), "--replay", replay])


def table(results: dict) -> list[str]:
    lines = ["| replay | policy | jobs | users | campaigns | mean campaign stretch (all) | mean without outliers > 1000 "
             "(paper) | outliers | at stretch 1 | < 1.4 | < 2.15 | Jain (users' means) | policy time (s) | "
             "whole replay (s) |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for key, r in results.items():
        replay, policy = key.split("/")
        paper = PAPER.get(policy, {})
        quoted = f" ({paper['mean']})" if "mean" in paper else ""
        share = lambda key, name: f"{100 * r[key]:.0f} %" + (f" ({100 * paper[name]:.0f} %)" if name in paper else "")  # noqa: E731
        lines.append(f"| {replay} | {policy} | {r['jobs']} | {r['users']} | {r['campaigns']} | {r['mean_campaign_stretch']:.2f} | "
                     f"{r['mean_campaign_stretch_without_outliers']:.3f}{quoted} | {r['campaign_outliers']} | "
                     f"{share('campaigns_at_stretch_1', 'at_1')} | {share('campaigns_below_1_4', 'below_1_4')} | "
                     f"{share('campaigns_below_2_15', 'below_2_15')} | {r['jain_fairness']:.3f} | "
                     f"{r['scheduling_seconds']:.2f} | {r['wall_seconds']:.2f} |")
    lines += ["", "Paper (Sec. VI): OStrich 1.12 against the log's 1.61 (the logged row: the log's schedule replayed); "
              "OStrich 64 % of campaigns at stretch 1, 90 % below 1.4, 99 % below 2.15; 33 users."]
    return lines


def plot(out: Path, results: dict, log) -> None:
    plt = pyplot(log)
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, r in results.items():
        percentiles = r["campaign_stretch_percentiles"]
        ax.step(percentiles, [p / 100 for p in range(len(percentiles))], where="post", label=key,
                linestyle="-" if key.startswith("closed") else ":")
    ax.set_xscale("log")
    ax.set_xlabel("campaign stretch (flow / max(last release + its time, W/m))")
    ax.set_ylabel("share of campaigns")
    ax.set_title("LPC-EGEE, 6 Dec 2004 - 24 Jan 2005, 140 CPUs, MAX campaigns")
    ax.axvline(1.4, color="grey", linestyle=":")
    ax.axvline(2.15, color="grey", linestyle=":")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "ostrich_cdf.png", dpi=120)
    plt.close(fig)
    # Fig. 9: each user's median campaign stretch, users in the order of their campaign count under the log.
    users = sorted(results["open/logged"]["per_user"], key=lambda u: -u["campaigns"])
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for key in ("open/logged", "open/ostrich", "closed/ostrich", "closed/fairshare"):
        medians = {u["user"]: u["median_campaign_stretch"] for u in results[key]["per_user"]}
        ax.plot(range(len(users)), [medians.get(u["user"], float("nan")) for u in users], "o", label=key)
    ax.set_xticks(range(len(users)), [u["user"] for u in users], rotation=90, fontsize=7)
    ax.set_yscale("log")
    ax.set_xlabel("user (most campaigns first)")
    ax.set_ylabel("median campaign stretch")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "ostrich_users.png", dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--start", default="2004-12-06")
    parser.add_argument("--end", default="2005-01-24")
    parser.add_argument("--procs", type=int, default=140)
    parser.add_argument("--campaigns", default="max", choices=("last", "arrival", "max"))
    args = parser.parse_args()
    check_built(args.cosched)
    trace = args.shared / "data" / "traces" / TRACE
    if not trace.exists():
        print(f"{trace} not found: this reproduction needs the workplace's shared/ folder; skipped")
        return
    args.out.mkdir(parents=True, exist_ok=True)
    results = {}
    for replay in REPLAYS:
        for policy in POLICIES:
            key = f"{replay}/{policy}"
            results[key] = run(args.cosched, trace, policy, replay, args)
            print(f"{key}: mean campaign stretch {results[key]['mean_campaign_stretch_without_outliers']:.3f} "
                  f"without outliers, {results[key]['wall_seconds']:.2f} s", flush=True)
    report = ["# seed 002 (OStrich) reproduced with cosched online", "", *table(results)]
    (args.out / "ostrich_paper.md").write_text("\n".join(report) + "\n")
    (args.out / "ostrich_paper.json").write_text(json.dumps(results, indent=1))
    plot(args.out, results, print)
    print("\n".join(report))


if __name__ == "__main__":
    sys.exit(main())
