#!/usr/bin/env python3
"""Reads the include graph of cosched's libraries and programs and refuses an arrow running back up.

Each library may include its own headers and the public headers of the libraries below it (docs/architecture.md,
"Layers"); the programs on top (cli/, bench/) may include any library's public headers. Nobody includes another
library's private headers (its src/ folder, reached as "<component>/..." from the runtime's shared src/ root).
Prints every offending include as file:line and exits 1; exits 0 when the graph is clean.
Usage: scripts/check_layers.py [REPOSITORY_ROOT]
"""
import pathlib
import re
import sys

LIBRARIES = ["common", "kernels", "platform", "config", "sched", "online", "sim", "knowledge", "exec", "app",
             "stream", "profiler", "launcher", "workflow"]

# component -> (source folders, its private source folder, components it may include besides itself)
LAYERS = {
    "common": (["runtime/src/common", "runtime/include/cosched/common"], []),
    "kernels": (["runtime/src/kernels", "runtime/include/cosched/kernels"], ["common"]),
    "platform": (["runtime/src/platform", "runtime/include/cosched/platform"], ["common"]),
    "config": (["runtime/src/config", "runtime/include/cosched/config"], ["common", "platform"]),
    "sched": (["runtime/src/sched", "runtime/include/cosched/sched"], ["common"]),
    "online": (["runtime/src/online", "runtime/include/cosched/online"], ["common", "sched"]),
    "sim": (["runtime/src/sim", "runtime/include/cosched/sim"], ["common", "platform", "sched", "online"]),
    # What is known about tasks' times (fits, strategies, makespan distributions): pure, above the sim core.
    "knowledge": (["runtime/src/knowledge", "runtime/include/cosched/knowledge"], ["common", "sched", "sim"]),
    "stream": (["stream_bench/src", "stream_bench/include/cosched/stream"], ["common", "kernels", "platform"]),
    "exec": (["runtime/src/exec", "runtime/include/cosched/exec"],
             ["common", "kernels", "platform", "config", "sched"]),
    "app": (["runtime/src/app", "runtime/include/cosched/app"], ["common"]),
    "profiler": (["profiler/src", "profiler/include/cosched/profiler"],
                 ["common", "kernels", "platform", "config", "sched", "online", "sim", "knowledge", "stream",
                  "exec"]),
    "launcher": (["launcher/src", "launcher/include/cosched/launcher"],
                 ["common", "platform", "config", "sched", "online", "sim", "knowledge", "exec"]),
    # The application layer: every pipeline a command runs, above both tools.
    "workflow": (["workflow/src", "workflow/include/cosched/workflow"],
                 ["common", "kernels", "platform", "config", "sched", "online", "sim", "knowledge", "stream", "exec",
                  "profiler", "launcher"]),
    # The programs: the command line and the benchmarks, on top of everything.
    "cli": (["cli", "stream_bench/main.cpp"], LIBRARIES),
    "bench": (["bench"], LIBRARIES),
}
# The runtime's components share one private include root (runtime/src), so "sched/rows.hpp" would reach sched's
# private header from another component: each component's private folder, as such an include names it.
PRIVATE_ROOTS = {name: f"runtime/src/{name}" for name in
                 ["common", "kernels", "platform", "config", "sched", "online", "sim", "knowledge", "exec", "app"]}
PUBLIC = re.compile(r'^\s*#\s*include\s*[<"]cosched/([a-z_]+)/')
QUOTED = re.compile(r'^\s*#\s*include\s*"([a-z_]+)/[^"]+"')


def sources(root, folder):
    path = root / folder
    if path.is_file():
        return [path]
    return [p for p in sorted(path.rglob("*")) if p.suffix in (".cpp", ".hpp", ".h")]


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    offences = []
    for component, (folders, allowed) in LAYERS.items():
        for folder in folders:
            for path in sources(root, folder):
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    where = f"{path.relative_to(root)}:{number}"
                    match = PUBLIC.match(line)
                    if match and match.group(1) != component and match.group(1) not in allowed:
                        offences.append(f"{where}: {component} includes cosched/{match.group(1)}/ "
                                        f"(allowed: {', '.join(allowed) or 'none'})")
                    match = QUOTED.match(line)
                    own = any((root / f / match.group(0).split('"')[1]).exists() for f in folders) if match else False
                    if match and match.group(1) in PRIVATE_ROOTS and match.group(1) != component and not own:
                        offences.append(f"{where}: {component} includes {match.group(1)}'s private header "
                                        f"({PRIVATE_ROOTS[match.group(1)]}/)")
    for offence in offences:
        print(offence)
    if offences:
        print(f"{len(offences)} include(s) run back up the layers or into another library's sources "
              f"(docs/architecture.md)")
        return 1
    print(f"include graph clean: {len(LIBRARIES)} libraries and the programs, no arrow running back up, "
          f"no private header shared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
