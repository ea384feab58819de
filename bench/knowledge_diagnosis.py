#!/usr/bin/env python3
"""Where the recurring row's plan loss and profiling go: reads knowledge_study --recurring --diagnose's
PREFIX-diagnosis.csv (bench/results/knowledge-study-analysis-2026-11-29.md)."""
import argparse
import csv
import math
from collections import defaultdict


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("diagnosis", help="PREFIX-diagnosis.csv")
    parser.add_argument("--first-batch", type=int, default=1, help="0-based: the batches from this one on")
    parser.add_argument("--detail", action="store_true", help="every batch's kinds and runs")
    args = parser.parse_args()
    with open(args.diagnosis, newline="") as f:
        lines = [row for row in csv.DictReader(f) if int(row["batch"]) >= args.first_batch]
    batches = defaultdict(lambda: {"task": [], "run": [], "kind": []})
    for row in lines:
        batches[(row["node"], int(row["sequence"]), int(row["batch"]))][row["what"]].append(row)

    f = float
    total_loss = defaultdict(float)   # by cause, in units of the exhaustive makespan, summed over batches
    family_loss = defaultdict(float)
    prof_by = defaultdict(float)      # profiling seconds / makespan by class
    # Search or knowledge: the row's plan and the exhaustive plan rated by the row's own fits (expected times, which
    # the planner chooses on; columns written since 2026-11-30): the exhaustive plan rated better is a plan the
    # search missed, rated worse one the fits' errors hid from it.
    split = {"search missed": [], "fits hid": []}
    n = 0
    print("owner batch  plan/exh  allexh/exh  prof/mk  used%   kinds: family(loss%, cores plan/exh, ln err)")
    for key in sorted(batches):
        b = batches[key]
        if not b["task"]:
            continue
        n += 1
        t0 = b["task"][0]
        mk, exh, allexh = f(t0["makespan_s"]), f(t0["exhaustive_makespan_s"]), f(t0["all_exhaustive_makespan_s"])
        prof = sum(f(r["seconds"]) for r in b["run"])
        used = sum(f(r["seconds"]) for r in b["run"] if r["used"] == "1")
        parts = []
        for k in b["kind"]:
            gain = (mk - f(k["makespan_s"])) / exh
            tasks = [t for t in b["task"] if t["kind"] == k["kind"]]
            errs = [math.log(f(t["predicted_s"]) / f(t["truth_s"])) for t in tasks]
            cores = ",".join(f'{t["cores"]}/{t["exhaustive_cores"]}' + ("g" if t["guessed"] == "1" else "")
                             for t in tasks)
            parts.append((gain, f'{k["family"]}({100 * gain:+.1f}%, {cores}, {max(errs, key=abs):+.2f})'))
            family_loss[k["family"]] += gain
            guessed = any(t["guessed"] == "1" for t in tasks)
            under = min(errs) < -0.05
            cause = "guessed" if guessed else ("underpredicted" if under else "other")
            total_loss[cause] += gain
        parts.sort(reverse=True)
        total_loss["rest (planner, explore, interaction)"] += (allexh - exh) / exh
        total_loss["interaction (sum of kinds vs all)"] += (mk - allexh) / exh - sum(p[0] for p in parts)
        if t0.get("plan_on_expected_s"):
            rated = f(t0["plan_on_expected_s"]), f(t0["exhaustive_plan_on_expected_s"])
            split["search missed" if rated[1] < rated[0] else "fits hid"].append((mk - exh) / exh)
        runs_by_kind = defaultdict(float)
        for r in b["run"]:
            runs_by_kind[r["kind"]] += f(r["seconds"])
            cls = "used" if r["used"] == "1" else "unused"
            prof_by[f'{cls} {"short" if f(r["work"]) < 100 else "long"}'] += f(r["seconds"]) / mk
        print(f"{key[1]:>5} {key[2] + 1:>5}  {mk / exh:8.3f}  {allexh / exh:10.3f}  {100 * prof / mk:6.1f}%  "
              f"{100 * used / max(prof, 1e-9):4.0f}%   " + "; ".join(p[1] for p in parts))
        if args.detail:
            for r in b["run"]:
                print(f'        run kind {r["kind"]:>2} {r["cores"]:>2}c {r["chunks"]:>2}ch w{f(r["work"]):6.0f} '
                      f'{f(r["seconds"]):7.1f}s {100 * f(r["seconds"]) / mk:5.1f}% used={r["used"]}')
            for t in b["task"]:
                print(f'        task {t["task"]:>2} k{t["kind"]:>2} {t["family"]:<13} w{f(t["work"]):5.0f} '
                      f'{t["cores"]:>2}c{t["chunks"]:>2} pred {f(t["predicted_s"]):7.1f} true {f(t["truth_s"]):7.1f} '
                      f'| exh {t["exhaustive_cores"]:>2}c{t["exhaustive_chunks"]:>2} true {f(t["exhaustive_truth_s"]):7.1f} '
                      f'fit there {f(t["fit_at_exhaustive_s"]):7.1f} start {f(t["start_s"]):6.0f}')
    print(f"\n{n} batches; mean plan loss / exhaustive makespan by cause (a kind's loss: the plan's makespan minus the"
          " plan with that kind's fits exhaustive)")
    for cause, value in sorted(total_loss.items(), key=lambda kv: -kv[1]):
        print(f"  {cause:<40} {100 * value / n:+6.2f} %")
    print("by family:")
    for family, value in sorted(family_loss.items(), key=lambda kv: -kv[1]):
        print(f"  {family:<40} {100 * value / n:+6.2f} %")
    if any(split.values()):
        print("the exhaustive plan rated by the row's fits (expected times) against the row's plan:")
        for what, losses in split.items():
            text = f"mean loss {100 * sum(losses) / len(losses):+6.2f} %" if losses else ""
            print(f"  {what:<40} {len(losses):>3} of {n} batches  {text}")
    calibration(lines)
    print("profiling / makespan by class:")
    for cls, value in sorted(prof_by.items()):
        print(f"  {cls:<40} {100 * value / n:6.2f} %")


def calibration(lines):
    """The sd of ln t the fits state at each planned allocation against how far off they were there (columns
    written since 2026-11-30): a calibrated fit has its errors' rms near its stated sd and 80 % of them within
    1.28 sd."""
    bands = [(0.03, "sd < 0.03"), (0.1, "sd < 0.1"), (0.3, "sd < 0.3"), (math.inf, "sd >= 0.3")]
    by_band = defaultdict(list)
    for row in lines:
        if row["what"] != "task" or row["guessed"] == "1" or not row.get("predicted_log_sd"):
            continue
        sd = float(row["predicted_log_sd"])
        if not math.isfinite(sd):
            continue
        error = math.log(float(row["truth_s"]) / float(row["predicted_s"]))
        by_band[next(name for top, name in bands if sd < top)].append((sd, error))
    if not by_band:
        return
    print("the fits' stated sd of ln t at the plan's allocations against their errors there:")
    print(f"  {'band':<10} {'tasks':>5} {'stated sd':>10} {'error rms':>10} {'within 1.28 sd':>15}")
    for _, name in bands:
        pairs = by_band.get(name)
        if not pairs:
            continue
        rms = math.sqrt(sum(e * e for _, e in pairs) / len(pairs))
        within = sum(abs(e) <= 1.2816 * sd for sd, e in pairs) / len(pairs)
        print(f"  {name:<10} {len(pairs):>5} {sum(sd for sd, _ in pairs) / len(pairs):>10.3f} {rms:>10.3f} "
              f"{100 * within:>14.0f}%")


if __name__ == "__main__":
    main()
