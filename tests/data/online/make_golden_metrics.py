#!/usr/bin/python3
"""Writes golden_metrics.json: the metrics `cosched online --json` printed for a fixed set of runs, every field but
the timings. tests/launcher/online_golden_test.cpp runs the same commands and requires the same values, bit for
bit, so a change meant to be a speed-up (issue 25) cannot move a result. Generated once, by the binary of the commit
named in tests/data/README.md; do not regenerate to make a failing test pass.

    tests/data/online/make_golden_metrics.py build/bin/cosched > tests/data/online/golden_metrics.json
"""
import json
import subprocess
import sys

SYNTHETIC = "--synthetic --delta 20 --load 295 --jobs 3000 --seed 5"
KTH = "--trace @DATA@/traces/KTH-SP2-1996-2.1-cln-first100.swf"
SDSC = "--trace @DATA@/traces/SDSC-Par-1996-3.1-cln-first400.swf.gz --procs 512 --downey-seed 1"
RESERVE = "--reserve 30 --threshold 5"
CASES = [f"--policy {p} {SYNTHETIC}" for p in ("fcfs", "easy", "conservative", "dasedf", "fairshare", "ostrich",
                                                 "dbos", "iterative", "improved-iterative")]
CASES += [f"--policy fcfs-reservation {RESERVE} {SYNTHETIC}", f"--policy dasedf-reservation {RESERVE} {SYNTHETIC}",
          f"--policy split --rho 3 {SYNTHETIC}"]
CASES += [f"--policy {p} {KTH} --campaigns max" for p in ("fcfs", "easy", "conservative", "dasedf", "fairshare",
                                                           "ostrich", "logged", "dbos", "iterative")]
CASES += [f"--policy {p} {SDSC}" for p in ("dbos --rho 1", "dbos --rho 1.5", "iterative", "improved-iterative")]
TIMINGS = {"scheduling_seconds", "scheduling_seconds_per_event", "scheduling_max_seconds"}


def main() -> None:
    cosched, data = sys.argv[1], sys.argv[2]
    golden = []
    for case in CASES:
        args = case.replace("@DATA@", data).split()
        out = subprocess.run([cosched, "online", *args, "--json"], check=True, capture_output=True, text=True).stdout
        metrics = {k: v for k, v in json.loads(out).items() if k not in TIMINGS and k != "workload"}
        golden.append({"arguments": case, "metrics": metrics})
    json.dump(golden, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
