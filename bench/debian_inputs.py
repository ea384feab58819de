#!/usr/bin/python3
"""The inputs of configs/workloads/debian-programs.json, made deterministically (bench/batch_vs_naive.py).

The batch's commands read inputs/<file> relative to the folder they run in. Text files are words drawn from a
Zipf-like vocabulary of pseudo-words (about 12 a line), so compressors and sort see text-like data that does not
repeat; the image is random pixels (a blur costs the same whatever the pixels). The same seed and size give the
same bytes on any machine; a file already there with its recorded seed and size is kept.

    bench/debian_inputs.py DIR [SCALE]     # makes DIR/inputs/... (SCALE: sizes times SCALE, default 1)

Python 3 standard library only.
"""

import array
import json
import random
import shlex
import shutil
import sys
from pathlib import Path

SEED = 39
# file -> (kind, size at scale 1): text in bytes, image as its width = height in pixels.
INPUTS = {"words-a.txt": ("words", 40 << 20), "words-b.txt": ("words", 24 << 20), "words-c.txt": ("words", 32 << 20),
          "noise.ppm": ("image", 2400)}
INSTALL_HINT = "scripts/setup.sh --bench installs the programs of configs/workloads/debian-programs.json"


def word_table(rng: random.Random) -> list:
    """65536 entries for a uniform 16-bit index: word k of a 4096-word vocabulary about 1/(k+1) of the time, each
    entry followed by a space, or by a newline once in 12."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocabulary = ["".join(rng.choices(letters, k=rng.randint(2, 11))) for _ in range(4096)]
    weights = [1.0 / (k + 1) for k in range(len(vocabulary))]
    total = sum(weights)
    table = []
    for word, weight in zip(vocabulary, weights):
        table.extend([word] * max(1, round(weight / total * 65536)))
    table = table[:65536] + vocabulary[:max(0, 65536 - len(table))]
    return [word + ("\n" if k % 12 == 11 else " ") for k, word in enumerate(table)]


def write_words(path: Path, size: int, seed: int) -> None:
    rng = random.Random(seed)
    table = word_table(rng)
    with path.open("w") as out:
        written = 0
        while written < size:
            indices = array.array("H", rng.randbytes(2 * 200_000))
            text = "".join(map(table.__getitem__, indices))[:size - written]
            out.write(text)
            written += len(text)
        out.write("\n")


def write_image(path: Path, side: int, seed: int) -> None:
    rng = random.Random(seed)
    with path.open("wb") as out:
        out.write(f"P6\n{side} {side}\n255\n".encode())
        out.write(rng.randbytes(side * side * 3))


def make_inputs(folder: Path, scale: float = 1.0) -> str:
    """Makes (or keeps) every input at `scale` times its size; returns what it did, in words."""
    folder.mkdir(parents=True, exist_ok=True)
    made, kept = [], []
    for offset, (name, (kind, size)) in enumerate(INPUTS.items()):
        scaled = max(16, round(size * scale if kind == "words" else size * scale ** 0.5))
        stamp = folder / (name + ".made")
        recipe = {"seed": SEED + offset, "kind": kind, "size": scaled}
        if (folder / name).is_file() and stamp.is_file() and json.loads(stamp.read_text()) == recipe:
            kept.append(name)
            continue
        (write_words if kind == "words" else write_image)(folder / name, scaled, recipe["seed"])
        stamp.write_text(json.dumps(recipe) + "\n")
        made.append(f"{name} {scaled}{' B' if kind == 'words' else ' px square'}")
    return f"made {', '.join(made) or 'none'}; kept {', '.join(kept) or 'none'}"


def check_programs(batch) -> None:
    """Every program the batch runs is on this machine (a `sh -c` command's first word too, of each of its pipeline's
    stages)."""
    missing = []
    for task in batch.tasks:
        if task.command is None:
            continue
        programs = [task.command[0]]
        if Path(task.command[0]).name == "sh" and len(task.command) > 2 and task.command[1] == "-c":
            programs += [shlex.split(stage)[0] for stage in task.command[2].split("|") if stage.strip()]
        missing += [p for p in programs if shutil.which(p) is None]
    if missing:
        raise RuntimeError(f"{batch.path}: not installed here: {', '.join(sorted(set(missing)))} ({INSTALL_HINT})")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[2].strip())
    print(make_inputs(Path(sys.argv[1]) / "inputs", float(sys.argv[2]) if len(sys.argv) == 3 else 1.0))
