#!/usr/bin/env python3
"""Reads the include graph of cosched's libraries and refuses an arrow running back up.

Each library may include its own headers and those of the libraries below it (docs/architecture.md, "Layers").
Prints every offending include as file:line and exits 1; exits 0 when the graph is clean.
Usage: scripts/check_layers.py [REPOSITORY_ROOT]
"""
import pathlib
import re
import sys

# component -> (source folders, components it may include besides itself)
LAYERS = {
    "common": (["runtime/src/common", "runtime/include/cosched/common"], []),
    "platform": (["runtime/src/platform", "runtime/include/cosched/platform"], ["common"]),
    "config": (["runtime/src/config", "runtime/include/cosched/config"], ["common", "platform"]),
    "sched": (["runtime/src/sched", "runtime/include/cosched/sched"], ["common"]),
    "sim": (["runtime/src/sim", "runtime/include/cosched/sim"], ["common", "platform", "sched"]),
    # What is known about tasks' times (fits, strategies, makespan distributions): pure, above the sim core.
    "knowledge": (["runtime/src/knowledge", "runtime/include/cosched/knowledge"], ["common", "sched", "sim"]),
    "stream": (["stream_bench/src", "stream_bench/include/cosched/stream"], ["common", "platform"]),
    "exec": (["runtime/src/exec", "runtime/include/cosched/exec"],
             ["common", "platform", "config", "sched", "stream"]),
    "app": (["runtime/src/app", "runtime/include/cosched/app"], ["common"]),
    "profiler": (["profiler/src", "profiler/include/cosched/profiler"],
                 ["common", "platform", "config", "sched", "stream", "exec"]),
    "launcher": (["launcher/src", "launcher/include/cosched/launcher"],
                 ["common", "platform", "config", "sched", "sim", "exec"]),
    # The pipelines the commands run (the demo, `cosched run`, online runs): above both tools.
    "workflow": (["launcher/workflow/src", "launcher/workflow/include/cosched/workflow"],
                 ["common", "platform", "config", "sched", "sim", "stream", "exec", "profiler", "launcher"]),
}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]cosched/([a-z_]+)/')


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    offences = []
    for component, (folders, allowed) in LAYERS.items():
        for folder in folders:
            for path in sorted((root / folder).rglob("*")):
                if path.suffix not in (".cpp", ".hpp", ".h"):
                    continue
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    match = INCLUDE.match(line)
                    if match and match.group(1) != component and match.group(1) not in allowed:
                        offences.append(f"{path.relative_to(root)}:{number}: {component} includes "
                                        f"cosched/{match.group(1)}/ (allowed: {', '.join(allowed) or 'none'})")
    for offence in offences:
        print(offence)
    if offences:
        print(f"{len(offences)} include(s) run back up the layers (docs/architecture.md)")
        return 1
    print(f"include graph clean: {len(LAYERS)} libraries, no arrow running back up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
