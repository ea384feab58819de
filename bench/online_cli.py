"""What the online benchmark scripts share: the built `cosched online` run for one JSON result, the options every
script has (the binary, the shared/ folder, the output folder), and matplotlib when it is installed."""

import argparse
import json
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cosched", type=Path, default=ROOT / "build" / "bin" / "cosched")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")


def check_built(cosched: Path) -> None:
    if not cosched.exists():
        raise SystemExit(f"{cosched} not found: build first (cmake -S . -B build && cmake --build build)")


def run_online(cosched: Path, args: list[str]) -> dict:
    """`cosched online ARGS --json`: its JSON, plus the run's wall time; stops the script with its stderr on failure."""
    command = [str(cosched), "online", *args, "--json"]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    result = json.loads(done.stdout)
    result["wall_seconds"] = time.monotonic() - started
    return result


def pyplot(log):
    """matplotlib.pyplot with the Agg backend, or None (said through `log`) when it is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib not installed (Debian: python3-matplotlib; run with /usr/bin/python3): no plots")
        return None
    return plt
