#!/usr/bin/python3
"""The default measurer against what a plan launches (issue 39): the README's chain, as written, under two builds.

README.md's table runs `calibrate`, `profile`, `instance`, `plan`, `launch` in order on this machine's emulated
fast tier. Its `profile` row names no measurer, so the tables are whatever `cosched profile` does by default. This
benchmark runs those rows exactly as README.md writes them (read from README.md itself, as
tests/cli/readme_table_test.cpp does) with two builds' `cosched` and `stream_bench` first in PATH — the build
before a change of the default (`--before`) and the build under test (`--after`) — and compares, per build:

- the `profile` row's wall time (the whole command, as a user waits for it), and
- the launched batch's predicted makespan (paper model and contention-aware, from `cosched report --json`) against
  its observed makespan: error = observed / predicted - 1.

The node is calibrated once (the `calibrate` row, with the build under test) and shared: the measurer is what
differs. Each round runs both builds, the order swapped every round (A/B alternating), each in a fresh folder so
every command runs as written (no --force). The load average is recorded before every step.

    bench/default_measurer.py --before /tmp/before/bin                 # 4 rounds (a few minutes on the 2-core VM)
    bench/default_measurer.py --before /tmp/before/bin --rounds 1      # one round: checks the script and both builds

Measures, never asserts: stdout, and default_measurer.json in the output folder (docs/profiler.md, "The default
measurer predicts launches"). Python 3 standard library only.
"""

import argparse
import datetime
import json
import os
import socket
import statistics
import subprocess
import time
from pathlib import Path

from corun_fidelity import BenchError, closing_line, run_main, stamped_folder

ROOT = Path(__file__).resolve().parent.parent
CHAIN = ("calibrate", "profile", "instance", "plan", "launch", "report")
HANG_LIMIT_S = 900


def readme_rows() -> dict:
    """subcommand -> the first README table row's command `cosched SUBCOMMAND ...` (its first code span, `\\|` read
    as `|`), for the chain's subcommands; in table order."""
    rows = {}
    for line in (ROOT / "README.md").read_text().splitlines():
        if not line.startswith("| `"):
            continue
        close = line.find("`", 3)
        if close < 0:
            continue
        command = line[3:close].replace("\\|", "|")
        for subcommand in CHAIN:
            if command.startswith(f"cosched {subcommand} ") and subcommand not in rows:
                rows[subcommand] = command
    missing = [s for s in CHAIN if s not in rows]
    if missing:
        raise BenchError(f"README.md's table has no row `cosched {missing[0]} ...`")
    return rows


class Build:
    """One build's bin folder, first in PATH: runs a README command as written in a folder, logs it, times it."""

    def __init__(self, name: str, bin_dir: Path, log):
        self.name, self.bin_dir, self.log = name, bin_dir.resolve(), log
        for program in ("cosched", "stream_bench"):
            if not (self.bin_dir / program).is_file():
                raise BenchError(f"{self.bin_dir / program} is missing (--{name} names a folder with both)")

    def run(self, command: str, folder: Path) -> tuple:
        """(stdout, seconds) of the shell command run in `folder`; BenchError with its last stderr line on failure."""
        environment = dict(os.environ, PATH=f"{self.bin_dir}:{os.environ.get('PATH', '')}")
        self.log.write(f"$ [{self.name}, {folder.name}, load {os.getloadavg()[0]:.2f}] {command}\n")
        started = time.monotonic()
        done = subprocess.run(command, shell=True, cwd=folder, env=environment, capture_output=True, text=True,
                              timeout=HANG_LIMIT_S)
        seconds = time.monotonic() - started
        self.log.write(done.stdout + done.stderr + f"({seconds:.2f} s, exit {done.returncode})\n")
        self.log.flush()
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise BenchError(f"[{self.name}] `{command}` ended with {done.returncode}: {last}")
        return done.stdout, seconds


def fresh_folder(path: Path, node: Path) -> Path:
    """A folder that sees the repository's configs/ and the shared node model, as a user's clone after calibrate."""
    path.mkdir(parents=True)
    (path / "configs").symlink_to(ROOT / "configs")
    (path / node.name).symlink_to(node.resolve())
    return path


def chain(build: Build, rows: dict, folder: Path) -> dict:
    """The profile, instance, plan and launch rows in `folder`, then report --json: times, predictions, loads."""
    loads = {"profile": os.getloadavg()[0]}
    _, profile_s = build.run(rows["profile"], folder)
    profiles = sorted(folder.glob("*.csv"))
    if len(profiles) != 1:
        raise BenchError(f"the profile row wrote {len(profiles)} CSV files in {folder}, expected one")
    described = json.loads(profiles[0].with_suffix(".json").read_text())  # the measurer's keys at the top level
    measurer = {"measurer": described.get("measurer"), "passes": described.get("passes")}
    for step in ("instance", "plan", "launch"):
        loads[step] = os.getloadavg()[0]
        build.run(rows[step], folder)
    report = json.loads(build.run(rows["report"] + " --json", folder)[0])
    observed = report["observed_makespan"]
    paper, contention = report["predicted_makespan"], report.get("predicted_makespan_contention")
    return {"profile_s": profile_s, "measurer": measurer, "observed_s": observed, "predicted_paper_s": paper,
            "predicted_contention_s": contention,
            "error_paper": observed / paper - 1.0,
            "error_contention": observed / contention - 1.0 if contention else None,
            "load_average": loads}


def describe(values: list, percent: bool = False) -> str:
    values = [v for v in values if v is not None]
    if not values:
        return "n/a"
    scale, unit = (100.0, " %") if percent else (1.0, " s")
    form = "{:+.1f}" if percent else "{:.2f}"
    return (f"{form.format(scale * statistics.median(values))}{unit} "
            f"({form.format(scale * min(values))} .. {form.format(scale * max(values))})")


def print_summary(rounds: list, builds: list) -> dict:
    summary = {}
    print(f"\n{'build':7s} | {'profile row, wall':>22s} | {'observed / predicted - 1 (paper)':>34s} | "
          f"{'(contention-aware)':>26s}")
    for build in builds:
        runs = [r[build] for r in rounds]
        summary[build] = {key: [run[key] for run in runs]
                          for key in ("profile_s", "observed_s", "predicted_paper_s", "predicted_contention_s",
                                      "error_paper", "error_contention")}
        print(f"{build:7s} | {describe(summary[build]['profile_s']):>22s} | "
              f"{describe(summary[build]['error_paper'], True):>34s} | "
              f"{describe(summary[build]['error_contention'], True):>26s}")
    ratios = [r["after"]["profile_s"] / r["before"]["profile_s"] for r in rounds]
    summary["profile_s_after_over_before"] = ratios
    print(f"\nthe profile row's wall time, after / before within each round: {describe(ratios).replace(' s', '')} "
          f"(median, min .. max over {len(ratios)} round(s))")
    return summary


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True,
                        help="bin folder (cosched, stream_bench) of the build before the change")
    parser.add_argument("--after", type=Path, default=ROOT / "build" / "bin",
                        help="bin folder of the build under test (default build/bin)")
    parser.add_argument("--rounds", type=int, default=4, help="A/B rounds (default 4)")
    parser.add_argument("--output", type=Path, default=None, help="output folder (default default-measurer-<UTC time>)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be >= 1")
    args.output = (args.output or stamped_folder("default-measurer")).resolve()
    return args


def main() -> int:
    args = parse_arguments()
    args.output.mkdir(parents=True, exist_ok=True)
    rows = readme_rows()
    started, load_start = time.time(), os.getloadavg()
    print(f"default measurer: README.md's chain as written, build before {args.before} against after {args.after}, "
          f"{args.rounds} round(s); load average {load_start[0]:.2f}; output {args.output}", flush=True)
    print(f"  profile row: {rows['profile']}", flush=True)
    rounds = []
    with (args.output / "commands.log").open("w") as log:
        builds = {"before": Build("before", args.before, log), "after": Build("after", args.after, log)}
        calibrated = args.output / "calibrate"
        calibrated.mkdir()
        (calibrated / "configs").symlink_to(ROOT / "configs")
        builds["after"].run(rows["calibrate"], calibrated)
        node = next(p for p in calibrated.iterdir() if p.suffix == ".toml")
        for number in range(1, args.rounds + 1):
            order = ["before", "after"] if number % 2 == 1 else ["after", "before"]
            result = {}
            for name in order:
                folder = fresh_folder(args.output / f"round{number}-{name}", node)
                result[name] = chain(builds[name], rows, folder)
                r = result[name]
                print(f"round {number}/{args.rounds} {name:6s}: profile {r['profile_s']:6.2f} s "
                      f"({r['measurer']['measurer']}, passes {r['measurer']['passes']}; load "
                      f"{r['load_average']['profile']:.2f}); predicted {r['predicted_paper_s']:.3f} s paper, "
                      f"{r['predicted_contention_s'] or float('nan'):.3f} s contention-aware; observed "
                      f"{r['observed_s']:.3f} s: {100 * r['error_paper']:+.1f} % / "
                      f"{100 * (r['error_contention'] or float('nan')):+.1f} % (launch at load "
                      f"{r['load_average']['launch']:.2f})", flush=True)
            rounds.append(result)
    summary = print_summary(rounds, ["before", "after"])
    line, load_end = closing_line(started, load_start)
    print("\n" + line)
    document = {"benchmark": "bench/default_measurer.py", "date_utc": datetime.datetime.utcnow().isoformat() + "Z",
                "host": socket.gethostname(), "before": str(args.before), "after": str(args.after),
                "readme_rows": rows, "rounds": rounds, "summary": summary,
                "load_average": {"start": load_start, "end": load_end}, "wall_s": time.time() - started}
    (args.output / "default_measurer.json").write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {args.output / 'default_measurer.json'}")
    return 0


if __name__ == "__main__":
    run_main(main, "default_measurer")
