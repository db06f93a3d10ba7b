#!/usr/bin/python3
"""Independent references for the generated scenario families (core/include/dirac/families.hpp).

The equations are built here from the physics, not from the scenario's Lagrangian text:
  pendulum_chain  SymPy's LagrangesMethod on a chain of Particles (sympy.physics.mechanics)
  car_trailers    SymPy's LagrangesMethod on RigidBodies with the knife edges as nonholonomic
                  constraints (dot(axle velocity, lateral axis) = 0)
  rigid_body_so   Euler-Poincare by hand with numpy: M' = [M, Omega], M = J Omega + Omega J
  point_vortices  Kirchhoff's equations by hand with numpy
and integrated with SciPy's solve_ivp (DOP853, rtol = atol = 1e-12). Only data is read from the
generated scenario: the initial values, the parameter defaults and t_end.

Run:  family_reference.py SCENARIO.yaml FAMILY N [--set NAME=VALUE]... [--t-end T]
prints {"t_end": T, "final": {column: value}} as JSON. check_family.py imports this module for
the reference and for the invariants (energy, Casimirs, impulses, constraint residuals).
Needs Debian's python3-sympy, python3-scipy, python3-numpy, python3-yaml.
"""
import argparse
import json
import math
import sys

import numpy as np
import sympy as sp
import yaml
from scipy.integrate import solve_ivp
from sympy.physics import mechanics as me

RTOL = ATOL = 1e-12


def read_scenario(path, overrides=()):
    """(initial values by column name, parameter values by name, t_end) of a generated file."""
    with open(path) as f:
        doc = yaml.safe_load(f)
    initial, params = {}, {}
    for c in doc.get("coordinates", []):
        initial[c["name"]] = float(c.get("initial", 0.0))
        initial[c.get("velocity", "v" + c["name"])] = float(c.get("initial_velocity", 0.0))
    for y in doc.get("algebroid", {}).get("fibre", []):
        initial[y["name"]] = float(y.get("initial", 0.0))
    for p in doc.get("parameters", []):
        params[p["name"]] = float(p["default"])
    t_end = float(doc["simulation"]["t_end"])
    for text in overrides:
        name, value = text.split("=", 1)
        if name in params:
            params[name] = float(value)
        elif name in initial:
            initial[name] = float(value)
        elif name == "t_end":
            t_end = float(value)
        else:
            raise SystemExit(f"--set {name}: no such parameter or initial value")
    return initial, params, t_end


# ---- the n-link pendulum (absolute angles from the downward vertical) -----------------------


class PendulumChain:
    def __init__(self, n, params):
        self.n = n
        self.q = me.dynamicsymbols(f"th1:{n + 1}")
        self.u = [sp.diff(qi, sp.Symbol("t")) for qi in self.q]
        m, l, g = sp.symbols("m l g")
        frame = me.ReferenceFrame("N")
        origin = me.Point("O")
        origin.set_vel(frame, 0)
        point, particles = origin, []
        for i, qi in enumerate(self.q):
            point = point.locatenew(f"P{i + 1}", l * (sp.sin(qi) * frame.x - sp.cos(qi) * frame.y))
            point.set_vel(frame, point.pos_from(origin).dt(frame))
            particle = me.Particle(f"Pa{i + 1}", point, m)
            particle.potential_energy = m * g * point.pos_from(origin).dot(frame.y)
            particles.append(particle)
        values = {m: params["m"], l: params["l"], g: params["g"]}
        lagrangian = me.Lagrangian(frame, *particles).subs(values)
        kinetic = sum(p.kinetic_energy(frame) for p in particles).subs(values)
        potential = sum(p.potential_energy for p in particles).subs(values)
        self.lagrangian = lagrangian
        state = list(self.q) + list(self.u)
        self.energy_function = sp.lambdify(state, [kinetic, potential], "numpy")
        self.columns = [f"th{i}" for i in range(1, n + 1)] + [f"vth{i}" for i in range(1, n + 1)]

    def prepare(self):
        """Forms the equations of motion (only the reference integration needs them)."""
        method = me.LagrangesMethod(self.lagrangian, self.q)
        method.form_lagranges_equations()
        state = list(self.q) + list(self.u)
        self.mass = sp.lambdify(state, method.mass_matrix_full, "numpy")
        self.forcing = sp.lambdify(state, method.forcing_full, "numpy")

    def rhs(self, t, x):
        return np.linalg.solve(np.asarray(self.mass(*x), float),
                               np.asarray(self.forcing(*x), float).ravel())

    def invariants(self, row):
        """{name: (value, magnitude)}: the magnitude scales the relative tolerance."""
        kinetic, potential = self.energy_function(*[row[c] for c in self.columns])
        return {"energy": (float(kinetic + potential), float(abs(kinetic) + abs(potential)))}

    def residuals(self, row):
        return []


# ---- the car with n trailers -----------------------------------------------------------------


class CarTrailers:
    def __init__(self, n, params):
        self.n = n
        names = ["x", "y"] + [f"th{k}" for k in range(n + 1)]
        self.q = me.dynamicsymbols(" ".join(names))
        t = sp.Symbol("t")
        self.u = [sp.diff(qi, t) for qi in self.q]
        m, J, d, a = sp.symbols("m J d a")
        frame = me.ReferenceFrame("N")
        origin = me.Point("O")
        origin.set_vel(frame, 0)
        x, y, headings = self.q[0], self.q[1], self.q[2:]
        axle = origin.locatenew("A0", x * frame.x + y * frame.y)
        bodies, constraints, axles = [], [], []
        for k, th in enumerate(headings):
            body_frame = frame.orientnew(f"B{k}", "Axis", [th, frame.z])
            if k > 0:  # hitched at the axle ahead, its own axle d behind along its heading
                axle = axle.locatenew(f"A{k}", -d * body_frame.x)
            axle.set_vel(frame, axle.pos_from(origin).dt(frame))
            centre = axle.locatenew(f"C{k}", a * body_frame.x)
            centre.set_vel(frame, centre.pos_from(origin).dt(frame))
            bodies.append(me.RigidBody(f"Body{k}", centre, body_frame, m,
                                       (me.inertia(body_frame, 0, 0, J), centre)))
            constraints.append(axle.vel(frame).dot(body_frame.y))
            axles.append((axle, body_frame))
        values = {m: params["m"], J: params["J"], d: params["d"], a: params["a"]}
        lagrangian = me.Lagrangian(frame, *bodies).subs(values)
        energy = sum(b.kinetic_energy(frame) for b in bodies).subs(values)
        constraints = [c.subs(values) for c in constraints]
        self.lagrangian, self.constraints = lagrangian, constraints
        state = list(self.q) + list(self.u)
        self.energy_function = sp.lambdify(state, energy, "numpy")
        self.constraint_function = sp.lambdify(state, constraints, "numpy")
        self.columns = names + ["v" + s for s in names]

    def prepare(self):
        """Forms the equations of motion with the multipliers (for the reference integration)."""
        method = me.LagrangesMethod(self.lagrangian, self.q, nonhol_coneqs=self.constraints)
        method.form_lagranges_equations()
        state = list(self.q) + list(self.u)
        self.mass = sp.lambdify(state, method.mass_matrix_full, "numpy")
        self.forcing = sp.lambdify(state, method.forcing_full, "numpy")

    def rhs(self, t, x):
        z = np.linalg.solve(np.asarray(self.mass(*x), float),
                            np.asarray(self.forcing(*x), float).ravel())
        return z[: len(x)]  # (q', q''); the multipliers are z[len(x):]

    def invariants(self, row):
        energy = float(self.energy_function(*[row[c] for c in self.columns]))
        return {"energy": (energy, abs(energy))}

    def residuals(self, row):
        return [float(r) for r in self.constraint_function(*[row[c] for c in self.columns])]


# ---- the generalised rigid body on so(n) ------------------------------------------------------


class RigidBodySo:
    def __init__(self, n, params):
        self.n = n
        self.d = np.array([params[f"d{i}"] for i in range(1, n + 1)])
        self.pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        self.columns = [f"w{i + 1}_{j + 1}" for i, j in self.pairs]
        self.inertia = np.array([self.d[i] + self.d[j] for i, j in self.pairs])

    def omega(self, w):
        om = np.zeros((self.n, self.n))
        for (i, j), value in zip(self.pairs, w):
            om[i, j], om[j, i] = value, -value
        return om

    def momentum(self, w):
        om, jd = self.omega(w), np.diag(self.d)
        return jd @ om + om @ jd

    def rhs(self, t, w):
        m, om = self.momentum(w), self.omega(w)
        dm = m @ om - om @ m  # Euler-Poincare on so(n): M' = [M, Omega]
        return np.array([dm[i, j] for i, j in self.pairs]) / self.inertia

    def invariants(self, row):
        w = np.array([row[c] for c in self.columns])
        m = self.momentum(w)
        energy = 0.5 * float(np.dot(self.inertia, w * w))
        out = {"energy": (energy, energy)}
        power = np.eye(self.n)
        m2 = m @ m
        for k in range(2, self.n + 1, 2):  # tr(M^k); odd powers of a skew matrix have trace 0
            power = power @ m2
            trace = float(np.trace(power))
            out[f"tr(M^{k})"] = (trace, abs(trace))  # all eigenvalue terms have one sign
        return out

    def residuals(self, row):
        return []


# ---- N point vortices --------------------------------------------------------------------------


class PointVortices:
    def __init__(self, n, params):
        self.n = n
        self.gamma = np.array([params[f"G{i}"] for i in range(1, n + 1)])
        self.columns = [s for i in range(1, n + 1) for s in (f"x{i}", f"y{i}")]

    def rhs(self, t, z):
        x, y = z[0::2], z[1::2]
        dx, dy = x[:, None] - x[None, :], y[:, None] - y[None, :]
        r2 = dx * dx + dy * dy
        np.fill_diagonal(r2, np.inf)
        # Kirchhoff: G_i x_i' = dH/dy_i, G_i y_i' = -dH/dx_i, H = -(1/4pi) sum_{i<j} G_i G_j log r2
        u = -(self.gamma[None, :] * dy / r2).sum(axis=1) / (2 * math.pi)
        v = (self.gamma[None, :] * dx / r2).sum(axis=1) / (2 * math.pi)
        out = np.empty_like(z)
        out[0::2], out[1::2] = u, v
        return out

    def invariants(self, row):
        x = np.array([row[f"x{i}"] for i in range(1, self.n + 1)])
        y = np.array([row[f"y{i}"] for i in range(1, self.n + 1)])
        g = self.gamma
        h = h_magnitude = 0.0
        for i in range(self.n):
            for j in range(i + 1, self.n):
                term = g[i] * g[j] * math.log((x[i] - x[j]) ** 2 + (y[i] - y[j]) ** 2) / (4 * math.pi)
                h -= term
                h_magnitude += abs(term)
        r2 = x * x + y * y
        return {"energy": (h, h_magnitude),
                "angular impulse": (float(np.dot(g, r2)), float(np.dot(abs(g), r2))),
                "impulse x": (float(np.dot(g, x)), float(np.dot(abs(g), abs(x)))),
                "impulse y": (float(np.dot(g, y)), float(np.dot(abs(g), abs(y))))}

    def residuals(self, row):
        return []


FAMILIES = {"pendulum_chain": PendulumChain, "car_trailers": CarTrailers,
            "rigid_body_so": RigidBodySo, "point_vortices": PointVortices}


def make_system(family, n, params):
    return FAMILIES[family](n, params)


def integrate(system, initial, t_end):
    """The final state {column: value} from `initial` (by column name) at t_end."""
    if hasattr(system, "prepare"):
        system.prepare()
    x0 = np.array([initial[c] for c in system.columns], float)
    sol = solve_ivp(system.rhs, (0.0, t_end), x0, method="DOP853", rtol=RTOL, atol=ATOL,
                    t_eval=[t_end])
    if not sol.success:
        raise RuntimeError(f"solve_ivp failed: {sol.message}")
    return dict(zip(system.columns, (float(v) for v in sol.y[:, -1])))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scenario")
    parser.add_argument("family", choices=sorted(FAMILIES))
    parser.add_argument("n", type=int)
    parser.add_argument("--set", action="append", default=[], dest="overrides")
    parser.add_argument("--t-end", type=float)
    args = parser.parse_args()
    initial, params, t_end = read_scenario(args.scenario, args.overrides)
    if args.t_end is not None:
        t_end = args.t_end
    system = make_system(args.family, args.n, params)
    final = integrate(system, initial, t_end)
    json.dump({"t_end": t_end, "final": final}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
