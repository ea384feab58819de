#!/usr/bin/env python3
"""How well the speed-up prior of a kind measured at one core count (knowledge::amdahl_prior_log_ratio) describes
the simulated study's programs: bench/knowledge_study/ground_truth.cpp's eight families, drawn as there (without
fast memory, whose fixed cost is negligible), measured at 2 cores (the naive first batch's count on knl-64),
predicted at 4..64 cores. Prints, per family and count, the mean ln(prior median / truth) and the share of programs
inside the prior's 80 % band, for the prior before (exponent uniform on [0, 1]) and now (Amdahl, serial fraction
log-uniform on [1e-3, 1]). The families' draws and both priors are restated here; the C++ ones are the reference
(bench/results/knowledge-study-analysis-2026-11-29.md)."""
import argparse
import math
import random

CORES = 64
Z80 = 1.2816  # the 10th and 90th percentiles of a normal
NOISE_FLOOR = 0.02  # FitOptions::noise_floor, one run at the measured count
SERIAL_MIN = 1e-3  # kOneCountSerialFractionMin


def amdahl_prior(p0, p, intervals=64):
    low = math.log(SERIAL_MIN)
    step = -low / intervals
    total = total2 = 0.0
    for i in range(intervals + 1):
        s = math.exp(low + step * i)
        r = math.log(s + (1 - s) / p) - math.log(s + (1 - s) / p0)
        weight = 1 if i in (0, intervals) else (4 if i % 2 else 2)
        total += weight * r
        total2 += weight * r * r
    mean = total / (3 * intervals)
    return mean, math.sqrt(max(0.0, total2 / (3 * intervals) - mean * mean))


def exponent_prior(p0, p):
    span = math.log(p0 / p)
    return 0.5 * span, abs(span) / math.sqrt(12)


def draw(family, rng):
    u = rng.uniform
    amdahl = lambda s: (lambda p: s + (1 - s) / p)
    if family == "paper-amdahl":
        return amdahl(u(0, 0.2))
    if family == "paper-power":
        alpha = u(0.3, 1)
        return lambda p: p ** -alpha
    if family == "memory-bound":
        saturation = u(CORES / 8, CORES / 3)
        return lambda p: math.sqrt(1 / p**2 + 1 / saturation**2)
    if family == "mpi-like":
        s, per_doubling = u(0.005, 0.04), u(0.002, 0.01)
        return lambda p: amdahl(s)(p) + per_doubling * math.log2(p)
    if family == "dense-linear":
        return amdahl(u(0.001, 0.01))
    if family == "plateau":
        s, p0 = u(0.005, 0.03), round(u(CORES / 8, CORES / 2))
        return lambda p: s + (1 - s) / min(p, p0)
    if family == "slowdown":
        s, p0, slope = u(0.005, 0.03), round(u(CORES / 4, CORES / 2)), u(0.2, 1)
        at_p0 = s + (1 - s) / p0
        return lambda p: amdahl(s)(p) + slope * at_p0 * max(0, p - p0) / p0
    if family == "cache-jump":
        s, jump = u(0.01, 0.05), round(u(CORES / 8, CORES / 2))
        return lambda p: amdahl(s)(p) * (0.6 if p >= jump else 1)
    raise ValueError(family)


FAMILIES = ["paper-amdahl", "paper-power", "memory-bound", "mpi-like", "dense-linear", "plateau", "slowdown",
            "cache-jump"]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--programs", type=int, default=300, help="programs drawn per family")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    measured = 2
    priors = {"before": exponent_prior, "now": amdahl_prior}
    totals = {name: [0.0, 0.0, 0, 1.0] for name in priors}  # error sum, inside sum, cells, fewest inside
    print(f"{'family':<14}{'cores':>5}  " + "  ".join(f"{name + ': ln err  in 80%':>22}" for name in priors))
    for family in FAMILIES:
        for cores in (4, 8, 16, 32, 64):
            programs = [draw(family, rng) for _ in range(args.programs)]
            cells = []
            for name, prior in priors.items():
                mean, sd = prior(measured, cores)
                band = Z80 * math.sqrt(sd * sd + NOISE_FLOOR * NOISE_FLOOR)
                errors = [mean - math.log(min(g(q) for q in range(1, cores + 1)) / g(measured)) for g in programs]
                error = sum(errors) / len(errors)
                inside = sum(abs(e) <= band for e in errors) / len(errors)
                totals[name][0] += error
                totals[name][1] += inside
                totals[name][2] += 1
                totals[name][3] = min(totals[name][3], inside)
                cells.append(f"{error:+14.2f} {inside:7.2f}")
            print(f"{family:<14}{cores:>5}  " + "  ".join(cells))
    for name, (error, inside, cells, fewest) in totals.items():
        print(f"{name}: mean ln(prior / truth) {error / cells:+.2f}, inside the 80 % band {inside / cells:.0%} "
              f"(fewest {fewest:.0%})")


if __name__ == "__main__":
    main()
