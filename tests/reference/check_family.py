#!/usr/bin/python3
"""Checks `dirac run` on a generated family scenario (a ctest test; tests/reference/CMakeLists.txt).

  check_family.py --cli DIRAC --workdir DIR FAMILY N [--reference]

Generates the scenario with `dirac generate`, runs `dirac run` on it and checks, on every
sample of the CSV, with the functions of family_reference.py (built from the physics, not from
the engine):
  - conserved quantities: energy (pendulum, so(n), trailers; the Hamiltonian for vortices), the
    Casimirs tr(M^k) on so(n), the impulse and angular impulse sum G_i |x_i|^2 of vortices:
    |I(t) - I(0)| <= 1e-9 * magnitude (the largest sum of |terms| of I over the samples);
  - the engine's E column equals the independent energy to the same bound;
  - constraint residuals: every residual_* column and the knife edges recomputed from the
    state, |r| <= 1e-10, and the knife edges at the file's initial values (not projected);
and with --reference the final state against the SymPy/SciPy integration: max |diff| <= 1e-8.
Each check also proves it can fail: the invariants must move by more than their bound when
the final state is perturbed by 1e-6, and the reference integrated with one parameter changed
by a relative 1e-6 must miss the engine's final state by more than 1e-8.
Exit status 0 when everything holds, 1 otherwise (a line per check either way).
"""
import argparse
import csv
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import family_reference as ref  # noqa: E402

INVARIANT_RTOL = 1e-9
RESIDUAL_TOL = 1e-10
FINAL_STATE_TOL = 1e-8
# The parameter changed (by a relative 1e-6) to show that the final-state check can fail.
PERTURBED_PARAMETER = {"pendulum_chain": "g", "rigid_body_so": "d1", "point_vortices": "G2",
                       "car_trailers": "J"}


class Checks:
    def __init__(self):
        self.failed = 0

    def require(self, ok, text):
        print(("ok    " if ok else "FAIL  ") + text)
        if not ok:
            self.failed += 1


def read_csv(path):
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    reader = csv.reader(lines)
    header = next(reader)
    return [dict(zip(header, map(float, row))) for row in reader], header


def run(command):
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"FAIL  {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    return time.monotonic() - start


def check_invariants(checks, system, rows):
    values = [system.invariants(r) for r in rows]
    for name, (value0, _) in values[0].items():
        drift = max(abs(v[name][0] - value0) for v in values)
        magnitude = max(v[name][1] for v in values)
        bound = INVARIANT_RTOL * magnitude
        checks.require(drift <= bound,
                       f"{name}: max |I(t) - I(0)| = {drift:.3e} <= {bound:.3e} "
                       f"(1e-9 x {magnitude:.6g}; I(0) = {value0:.17g})")
        # Can fail: a state off by 1e-6 (alternating signs, so no symmetry hides it) moves I.
        off = {c: v + (1e-6 if k % 2 else -1e-6) * (1 + k % 3)
               for k, (c, v) in enumerate(rows[-1].items()) if c in system.columns}
        moved = abs(system.invariants({**rows[-1], **off})[name][0] - value0)
        checks.require(moved > bound,
                       f"{name}: a 1e-6 perturbation of the final state moves it by {moved:.3e} "
                       f"> {bound:.3e} (the check can fail)")
    energy_error = max(abs(r["E"] - v["energy"][0]) for r, v in zip(rows, values))
    bound = INVARIANT_RTOL * max(v["energy"][1] for v in values)
    checks.require(energy_error <= bound,
                   f"column E equals the independent energy: max diff {energy_error:.3e} <= "
                   f"{bound:.3e}")


def check_residuals(checks, system, rows, header):
    for column in (c for c in header if c.startswith("residual_")):
        worst = max(abs(r[column]) for r in rows)
        checks.require(worst <= RESIDUAL_TOL, f"max |{column}| = {worst:.3e} <= 1e-10")
    independent = [system.residuals(r) for r in rows]
    if independent[0]:
        worst = max(abs(v) for res in independent for v in res)
        checks.require(worst <= RESIDUAL_TOL,
                       f"knife edges recomputed from the state: max |r| = {worst:.3e} <= 1e-10")


def check_reference(checks, args, scenario, rows):
    initial, params, t_end = ref.read_scenario(scenario)
    checks.require(abs(rows[-1]["t"] - t_end) <= 1e-12 * t_end, f"the run reached t_end = {t_end}")
    start = time.monotonic()
    system = ref.make_system(args.family, args.n, params)
    final = ref.integrate(system, initial, t_end)
    seconds = time.monotonic() - start
    diff = max(abs(rows[-1][c] - v) for c, v in final.items())
    worst = max(final, key=lambda c: abs(rows[-1][c] - final[c]))
    checks.require(diff <= FINAL_STATE_TOL,
                   f"final state at t = {t_end} against SymPy + SciPy ({seconds:.1f} s): max |diff| "
                   f"= {diff:.3e} <= 1e-8 (at {worst})")
    name = PERTURBED_PARAMETER[args.family]
    perturbed = dict(params, **{name: params[name] * (1 + 1e-6)})
    missed = ref.integrate(ref.make_system(args.family, args.n, perturbed), initial, t_end)
    miss = max(abs(rows[-1][c] - v) for c, v in missed.items())
    checks.require(miss > FINAL_STATE_TOL,
                   f"the reference with {name} changed by 1e-6 (relative) misses by {miss:.3e} "
                   f"> 1e-8 (the check can fail)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", required=True, help="the dirac executable")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--reference", action="store_true",
                        help="also compare the final state with the SymPy/SciPy reference")
    parser.add_argument("family", choices=sorted(ref.FAMILIES))
    parser.add_argument("n", type=int)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    stem = os.path.join(args.workdir, f"{args.family}-{args.n}")
    scenario, trajectory = stem + ".yaml", stem + ".csv"
    run([args.cli, "generate", args.family, str(args.n), "-o", scenario, "-q"])
    seconds = run([args.cli, "run", scenario, "--csv", trajectory, "-q"])
    rows, header = read_csv(trajectory)
    print(f"{args.family} n = {args.n}: dirac run {seconds:.2f} s, {len(rows)} samples")
    checks = Checks()
    initial, params, _ = ref.read_scenario(scenario)
    system = ref.make_system(args.family, args.n, params)
    at_start = system.residuals(initial)
    if at_start:  # the generator's initial velocities, before any projection by the engine
        worst = max(abs(v) for v in at_start)
        checks.require(worst <= 1e-14 * (1 + args.n),
                       f"the scenario's initial velocities satisfy the constraints: {worst:.3e}")
    check_invariants(checks, system, rows)
    check_residuals(checks, system, rows, header)
    if args.reference:
        check_reference(checks, args, scenario, rows)
    if checks.failed:
        print(f"{checks.failed} check(s) failed")
        sys.exit(1)


if __name__ == "__main__":
    main()
