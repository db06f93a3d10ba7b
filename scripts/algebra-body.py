#!/usr/bin/env python3
"""Writes a free body on a large Lie algebra from `algebroid.algebra` (docs/scenario-format.md,
"Lie algebras from a family"): the Euler-Poincare system of L = 1/2 sum I_a y_a^2 with a
non-trivial diagonal inertia I_a = 1 + 0.7 |sin(0.37 a + 0.1)| and initial values
y_a = 0.5 sin(1.7 (a + 1)) (a = 0, 1, ... in the family's basis order). Used for the
1 000-coordinate native-compile measurement in docs/benchmarks.md ("Native tapes at size").

usage: scripts/algebra-body.py so|su N [T_END] > body.yaml
"""
import math
import sys


def basis(family, n):
    if family == "so":
        return [f"w{i}_{j}" for i in range(1, n + 1) for j in range(i + 1, n + 1)]
    if family == "su":
        names = []
        for i in range(1, n + 1):
            for j in range(i + 1, n + 1):
                names += [f"a{i}_{j}", f"b{i}_{j}"]
        return names + [f"h{j}" for j in range(1, n)]
    sys.exit(f"algebra-body.py: family must be so or su, not {family}")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[-1].strip())
    family, n = sys.argv[1], int(sys.argv[2])
    t_end = float(sys.argv[3]) if len(sys.argv) == 4 else 0.2
    names = basis(family, n)
    inertia = [round(1 + 0.7 * abs(math.sin(0.37 * a + 0.1)), 6) for a in range(len(names))]
    initial = {name: round(0.5 * math.sin(1.7 * (a + 1)), 4) for a, name in enumerate(names)}
    print(f"name: Free body on {family}({n}), {len(names)} coordinates")
    print("algebroid:")
    print(f"  algebra: {{family: {family}, size: {n}}}")
    print(f"  inertia: {{diagonal: [{', '.join(map(str, inertia))}]}}")
    print(f"  initial: {{{', '.join(f'{k}: {v}' for k, v in initial.items())}}}")
    print(f"simulation: {{t_end: {t_end}, output_step: 0.05, rtol: 1.0e-10, atol: 1.0e-10}}")


if __name__ == "__main__":
    main()
