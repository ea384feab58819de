#!/usr/bin/env python3
"""Mutation testing by hand-written mutants: plant one single-line bug at a time, build only the test binary it
affects, run only the tests that should catch it, restore the file byte for byte.

    bench/mutants.py bench/mutants/2026-11-28.tsv [--build build] [--only ID,...] [--out results.jsonl]

The mutant list is a tab-separated file, one mutant a line (lines starting with # are comments):

    id  file:line  old text  new text  build targets (comma-separated)  ctest -R regex

`old text` must occur exactly once on that line (or, when the code moved, on exactly one line of the file). Before each mutant the file must equal HEAD (`git diff --quiet`);
after it, the original bytes are written back and checked the same way, also on Ctrl-C. A mutant whose build fails
is "stillborn" (not counted). At the end the binaries of every target are rebuilt from the restored sources. One JSON line per mutant goes to --out (appended) and a summary to stdout.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys
import time


def parse_list(path):
    mutants = []
    for number, raw in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = raw.split("\t")
        if len(fields) != 6:
            sys.exit(f"{path}:{number}: 6 tab-separated fields expected, got {len(fields)}")
        ident, where, old, new, targets, regex = fields
        file, line = where.rsplit(":", 1)
        mutants.append({"id": ident, "file": file, "line": int(line), "old": old, "new": new,
                        "targets": targets.split(","), "regex": regex})
    return mutants


def clean(repo, file):
    return subprocess.run(["git", "-C", repo, "diff", "--quiet", "--", file]).returncode == 0


def run_one(repo, build, mutant, timeout):
    path = pathlib.Path(repo) / mutant["file"]
    if not clean(repo, mutant["file"]):
        sys.exit(f"{mutant['file']} differs from HEAD before mutant {mutant['id']}: refusing to mutate it")
    original = path.read_bytes()
    lines = original.decode().split("\n")
    at = mutant["line"] - 1
    if at >= len(lines) or lines[at].count(mutant["old"]) != 1:
        # The code moved since the list was written: the one line that holds the text, if there is one.
        holding = [k for k, line in enumerate(lines) if line.count(mutant["old"]) == 1]
        if len(holding) != 1:
            return {"result": "bad-spec", "why": f"{mutant['old']!r} is on {len(holding)} lines, not line "
                                                 f"{mutant['line']}"}
        at = holding[0]
    mutant["line"] = at + 1
    lines[at] = lines[at].replace(mutant["old"], mutant["new"])
    try:
        path.write_bytes("\n".join(lines).encode())
        built = subprocess.run(["nice", "-n", "5", "cmake", "--build", build, "-j2", "--target", *mutant["targets"]],
                               capture_output=True, text=True)
        if built.returncode != 0:
            errors = [l for l in built.stdout.splitlines() if "error" in l][:2]
            return {"result": "stillborn", "why": " | ".join(errors)}
        begin = time.monotonic()
        tested = subprocess.run(["ctest", "--test-dir", build, "-R", mutant["regex"], "--timeout", str(timeout),
                                 "--output-on-failure"], capture_output=True, text=True)
        seconds = time.monotonic() - begin
        # "  53 - Suite.Test/param  # GetParam() = ... (Failed)": the name, then the outcome at the line's end; a
        # parameter's name may hold spaces ("Shapes/NaivePlan.X/(2, 3, 1, 1) (Failed)").
        failed = re.findall(r"^\s*\d+ - (.+?)(?:\s+# GetParam\(\).*?)?\s+\((\w+)\)\s*$", tested.stdout, re.M)
        ran = re.search(r"tests passed, (\d+) tests failed out of (\d+)", tested.stdout)
        if ran is None or int(ran.group(2)) == 0:
            return {"result": "no-tests", "why": tested.stdout[-300:]}
        if tested.returncode == 0:
            return {"result": "missed", "tests": int(ran.group(2)), "seconds": round(seconds, 1)}
        return {"result": "caught", "by": [f"{name} ({how})" for name, how in failed], "tests": int(ran.group(2)),
                "seconds": round(seconds, 1)}
    finally:
        path.write_bytes(original)
        if not clean(repo, mutant["file"]):
            sys.exit(f"{mutant['file']} not restored after mutant {mutant['id']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("list")
    parser.add_argument("--repo", default=".")
    parser.add_argument("--build", default="build")
    parser.add_argument("--only", default="", help="comma-separated mutant ids")
    parser.add_argument("--out", default="mutants.jsonl")
    parser.add_argument("--timeout", type=int, default=300, help="ctest --timeout per test (a hang is a catch)")
    args = parser.parse_args()
    mutants = parse_list(args.list)
    if args.only:
        wanted = set(args.only.split(","))
        mutants = [m for m in mutants if m["id"] in wanted]
    counts = {}
    with open(args.out, "a") as out:
        for mutant in mutants:
            outcome = run_one(args.repo, args.build, mutant, args.timeout)
            record = {"id": mutant["id"], "where": f"{mutant['file']}:{mutant['line']}",
                      "change": f"{mutant['old']} -> {mutant['new']}", **outcome}
            out.write(json.dumps(record) + "\n")
            out.flush()
            counts[outcome["result"]] = counts.get(outcome["result"], 0) + 1
            print(f"{record['id']:>4} {record['result']:<9} {record['where']}  {record['change']}  "
                  f"{', '.join(outcome.get('by', []))[:120]}{outcome.get('why', '')[:200]}", flush=True)
    # The binaries a mutant was built into stay so until rebuilt from the restored sources: rebuild them all once.
    targets = sorted({target for mutant in mutants for target in mutant["targets"]})
    if targets:
        subprocess.run(["nice", "-n", "5", "cmake", "--build", args.build, "-j2", "--target", *targets],
                       capture_output=True, check=True)
    caught, missed = counts.get("caught", 0), counts.get("missed", 0)
    if caught + missed:
        print(f"killed {caught} of {caught + missed} ({100.0 * caught / (caught + missed):.0f} %); {counts}")


if __name__ == "__main__":
    main()
