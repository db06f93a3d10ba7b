#!/usr/bin/python3
"""The n-link pendulum as a SymPy + SciPy user would run it: the peer of `dirac run` (issue 21).

Reads a scenario written by `dirac generate pendulum_chain N` (initial values, parameters,
t_end, output_step, rtol, atol), derives the equations with sympy.physics.mechanics'
LagrangesMethod (the chain of Particles of tests/reference/family_reference.py, imported, not
copied), lambdifies them, integrates with scipy.integrate.solve_ivp (DOP853 at the scenario's
rtol and atol) sampled every output_step, and writes the CSV columns of `dirac run`:
t, th1..thn, vth1..vthn, E (17 significant digits).

    /usr/bin/python3 pendulum_chain_sympy_scipy.py SCENARIO.yaml N --csv FILE
"""
import argparse
import os
import sys

import numpy as np
import yaml
from scipy.integrate import solve_ivp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import family_reference  # noqa: E402  (tests/reference/family_reference.py)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("n", type=int)
    parser.add_argument("--csv", required=True)
    args = parser.parse_args()
    initial, params, t_end = family_reference.read_scenario(args.scenario)
    with open(args.scenario) as f:
        sim = yaml.safe_load(f)["simulation"]
    step, rtol, atol = float(sim["output_step"]), float(sim["rtol"]), float(sim["atol"])

    chain = family_reference.PendulumChain(args.n, params)
    chain.prepare()  # LagrangesMethod, mass matrix and forcing lambdified
    x0 = np.array([initial[c] for c in chain.columns], float)
    samples = np.arange(int(round(t_end / step)) + 1) * step
    sol = solve_ivp(chain.rhs, (0.0, t_end), x0, method="DOP853", rtol=rtol, atol=atol,
                    t_eval=samples)
    if not sol.success:
        raise SystemExit(f"solve_ivp failed: {sol.message}")
    n = args.n
    kinetic, potential = chain.energy_function(*sol.y)
    with open(args.csv, "w") as out:
        out.write(",".join(["t"] + chain.columns + ["E"]) + "\n")
        for i, t in enumerate(sol.t):
            row = [t] + [sol.y[j, i] for j in range(2 * n)] + [kinetic[i] + potential[i]]
            out.write(",".join(f"{v:.17g}" for v in row) + "\n")


if __name__ == "__main__":
    main()
