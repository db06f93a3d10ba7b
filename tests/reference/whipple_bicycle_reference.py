#!/usr/bin/python3
"""Independent reference of the nonlinear Whipple-Carvallo bicycle (issues 37 and 38).

Meijaard, Papadopoulos, Ruina, Schwab (2007), "Linearized dynamics equations for the balance and
steer of a bicycle: a benchmark and review", Proc. R. Soc. A 463, Table 1 parameters. Written from
the paper's description with SymPy's mechanics (frames, points, RigidBody, KanesMethod); no code
copied from SymPy's own bicycle test (test_kane3.py), which uses other coordinates.

Run:  /usr/bin/python3 tests/reference/whipple_bicycle_reference.py [--out-dir DIR] [--check-only]
      writes whipple_bicycle_reference.csv and whipple_bicycle_reference_large.csv next to this
      file (or in DIR) and prints the verification numbers; exit status 0 iff all checks pass.
      Runtime (measured 2026-12-05, SymPy 1.11.1, SciPy 1.10.1, NumPy 1.24.2): 60 s of CPU,
      4 min 28 s wall on the shared, loaded 2-core machine; the KanesMethod derivation and
      lambdify take almost all of it, the four 5 s integrations about 5 s each.

CONVENTIONS (the engine's model must use the same coordinate definitions to compare)
  Global frame N: x forward, y right, z down (the benchmark's); ground plane z = 0; gravity +g N.z.
  Generalized coordinates q = (x, y, psi, phi, theta, delta, thetaR, thetaF):
    x, y    the rear wheel's contact point in N (z = 0 by construction).
    Rear frame orientation by body-fixed rotations z-x-y:
      A = N rotated by psi   (yaw)  about N.z,
      L = A rotated by phi   (lean) about A.x  (the rear wheel's plane is L's x-z plane),
      B = L rotated by theta (pitch) about L.y.
    B coincides with N at the upright reference configuration, so there theta = 0 (the upright
    pitch is 0) and B's axes are the benchmark's global axes: the rear frame's centre of mass
    (xB, zB) and inertia (IBxx, IByy, IBzz, IBxz) are given in B directly.
    Signs (all right-handed about the z-down axes): psi > 0 heading turns right; phi > 0 leans
    right (the right side goes down); theta > 0 pitches the nose up (x toward -z); delta > 0
    turns the front wheel right (rotation about the steer axis pointing down).
    Steer axis: H0 = B rotated by lambda = pi/10 about B.y, so H0.z = sin(lam) B.x + cos(lam) B.z
      points down and forward along the head tube (tilted back at the top); H = H0 rotated by
      delta about H0.z (the front frame); Hr = H rotated by -lambda about H.y (fixed in H,
      coincides with B when delta = 0): the front frame's centre (xH, zH) and inertia (IHxx,
      IHyy, IHzz, IHxz) are given in Hr, i.e. in the benchmark's global axes at the upright.
    The steer axis meets the ground, at the upright, at x = w + c (trail c behind it is the front
    contact at x = w).
    thetaR: rear wheel rotation relative to B about B.y; thetaF: front wheel rotation relative
      to H about H.y. Forward rolling has thetaR' < 0: the forward speed is v = -rR * thetaR'
      (and thetaF' = -v/rF at straight running).
  Points: rear contact P = (x, y, 0); rear hub R = P - rR L.z; rear frame centre
    B* = R + xB B.x + (zB + rR) B.z; steer axis point S = R + (w + c) B.x + rR B.z;
    front frame centre H* = S + (xH - w - c) Hr.x + zH Hr.z; front hub F = S - c Hr.x - rF Hr.z;
    front contact Q = F + rF e, e = (N.z - (N.z.H.y) H.y)/|N.z - (N.z.H.y) H.y|.
  Holonomic constraint: f(q) = Q.N.z = 0 (pitch tied to lean and steer; theta dependent).
  Speeds u = q' (all eight). Independent speeds: phi', delta', thetaR'. Dependent speeds
    x', y', psi', theta', thetaF' from five velocity constraints: the velocity of the rear wheel's
    material point at P along N.x and N.y, of the front wheel's material point at Q along N.x
    and N.y, and f' = (df/dq) u.
  Inertias: wheels axisymmetric about their axles, (IRxx, IRyy, IRxx) in B and (IFxx, IFyy, IFxx)
    in H; the rear frame (IBxx, IByy, IBzz, Ixy = 0, Iyz = 0, IBxz) in B; the front frame
    (IHxx, IHyy, IHzz, 0, 0, IHxz) in Hr. Inertia products as entries of the tensor
    (I = [[Ixx, 0, Ixz], [0, Iyy, 0], [Ixz, 0, Izz]]), as in the benchmark's Table 1.
  Energy: E = T + V, V = -sum_b m_b g (r_b . N.z) (height = -z), zero at z = 0.

EQUATIONS: KanesMethod with q' = u gives the unconstrained Kane's equations M(q) u' = f(q, u);
  the nonholonomic Kane's equations are formed numerically from them: with the constraints
  A(q) u = 0, u = N u_ind (N spanning ker A, built by solving for the dependent speeds) and
  u' = N u_ind' + w (A w = -A'(q, u) u, w_ind = 0):  N^T M N u_ind' = N^T (f - M w).
  The same system with multipliers, [M A^T; A 0][u'; -lam] = [f; -A' u], gives the contact
  forces: lam[4] is the generalized force of the front contact's height constraint, i.e. the
  N.z component of the ground's force on the front wheel (-normal load).

STATIC NORMAL LOADS at upright rest (moments about the contacts):
  total mass m = mR + mB + mH + mF = 94 kg; the centres at x = 0 (rear wheel), xB, xH, w;
  N_F = g (mB xB + mH xH + mF w) / w = 9.81 * 32.16 / 1.02 = 309.303529411764... N,
  N_R = g m - N_F = 922.14 - N_F = 612.836470588235... N (printed to 17 digits below).

CSV: columns t, x, y, psi, phi, theta, delta, thetaR, thetaF, x_dot, y_dot, psi_dot, phi_dot,
  theta_dot, delta_dot, thetaR_dot, thetaF_dot, energy (SI units, rad, rad/s, J); every 0.01 s
  from 0 to 5 s, 17 significant digits. v = 5 m/s (thetaR'(0) = -v/rR), q(0) = 0 (theta(0) = 0
  is the consistent upright pitch), phi'(0) = 0.5 (large: 2.0), delta'(0) = 0 (large: 1.0),
  the dependent speeds from the constraints. solve_ivp DOP853, rtol = atol = 1e-13.
"""
import argparse
import math
import os
import sys
import time

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp
from scipy.optimize import brentq
from sympy.physics import mechanics as me

PARAMS = dict(w=1.02, c=0.08, lam=math.pi / 10, g=9.81,
              rR=0.3, mR=2.0, IRxx=0.0603, IRyy=0.12,
              xB=0.3, zB=-0.9, mB=85.0, IBxx=9.2, IByy=11.0, IBzz=2.8, IBxz=2.4,
              xH=0.9, zH=-0.7, mH=4.0, IHxx=0.05892, IHyy=0.06, IHzz=0.00708, IHxz=-0.00756,
              rF=0.35, mF=3.0, IFxx=0.1405, IFyy=0.28)

# The benchmark's linear model (MATH.md; Meijaard et al. 2007, eq. (A 1)-(A 3) values).
M_BENCH = np.array([[80.81722, 2.31941332208709], [2.31941332208709, 0.29784188199686]])
C1_BENCH = np.array([[0.0, 33.86641391492494], [-0.85035641456978, 1.68540397397560]])
K0_BENCH = np.array([[-80.95, -2.59951685249872], [-2.59951685249872, -0.80329488458618]])
K2_BENCH = np.array([[0.0, 76.59734589573222], [0.0, 2.65431523794604]])
WEAVE_SPEED = 4.29238253634111
CAPSIZE_SPEED = 6.02426201538837

COLUMNS = ["t", "x", "y", "psi", "phi", "theta", "delta", "thetaR", "thetaF",
           "x_dot", "y_dot", "psi_dot", "phi_dot", "theta_dot", "delta_dot", "thetaR_dot",
           "thetaF_dot", "energy"]
IND = [3, 5, 6]        # phi', delta', thetaR'
DEP = [0, 1, 2, 4, 7]  # x', y', psi', theta', thetaF'
RTOL = ATOL = 1e-13
TIGHT = 2.5e-14  # just above SciPy's floor for DOP853 (100 eps): the error estimate's run


def static_normal_loads(p):
    """Rear and front normal loads at upright rest (N), by moments about the contacts."""
    front = p["g"] * (p["mB"] * p["xB"] + p["mH"] * p["xH"] + p["mF"] * p["w"]) / p["w"]
    total = p["g"] * (p["mR"] + p["mB"] + p["mH"] + p["mF"])
    return total - front, front


def derive():
    """Builds the model; returns numeric functions of (q, u) with the benchmark parameters."""
    q = me.dynamicsymbols("x y psi phi theta delta thetaR thetaF")
    u = me.dynamicsymbols("u0:8")
    x, y, psi, phi, theta, delta, thR, thF = q
    s = {k: sp.Symbol(k) for k in PARAMS}
    w, c, lam, g, rR, rF = s["w"], s["c"], s["lam"], s["g"], s["rR"], s["rF"]

    N = me.ReferenceFrame("N")
    A = N.orientnew("A", "Axis", [psi, N.z])
    L = A.orientnew("L", "Axis", [phi, A.x])
    B = L.orientnew("B", "Axis", [theta, L.y])
    H0 = B.orientnew("H0", "Axis", [lam, B.y])
    H = H0.orientnew("H", "Axis", [delta, H0.z])
    Hr = H.orientnew("Hr", "Axis", [-lam, H.y])
    R = B.orientnew("R", "Axis", [thR, B.y])
    F = H.orientnew("F", "Axis", [thF, H.y])

    O = me.Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", x * N.x + y * N.y)
    Rh = P.locatenew("Rh", -rR * L.z)
    Bc = Rh.locatenew("Bc", s["xB"] * B.x + (s["zB"] + rR) * B.z)
    S = Rh.locatenew("S", (w + c) * B.x + rR * B.z)
    Hc = S.locatenew("Hc", (s["xH"] - w - c) * Hr.x + s["zH"] * Hr.z)
    Fh = S.locatenew("Fh", -c * Hr.x - rF * Hr.z)
    nzy = N.z.dot(H.y)
    e = (N.z - nzy * H.y) / sp.sqrt(1 - nzy**2)
    Q = Fh.locatenew("Q", rF * e)

    qd_to_u = {qi.diff(): ui for qi, ui in zip(q, u)}
    for frame in (A, L, B, H0, H, Hr, R, F):  # angular velocities in terms of u = q'
        frame.set_ang_vel(N, frame.ang_vel_in(N).subs(qd_to_u))
    Rh.set_vel(N, Rh.pos_from(O).dt(N).subs(qd_to_u))
    Bc.v2pt_theory(Rh, N, B)
    S.v2pt_theory(Rh, N, B)
    Hc.v2pt_theory(S, N, H)
    Fh.v2pt_theory(S, N, H)

    bodies = [
        me.RigidBody("rear_wheel", Rh, R, s["mR"],
                     (me.inertia(B, s["IRxx"], s["IRyy"], s["IRxx"]), Rh)),
        me.RigidBody("rear_frame", Bc, B, s["mB"],
                     (me.inertia(B, s["IBxx"], s["IByy"], s["IBzz"], 0, 0, s["IBxz"]), Bc)),
        me.RigidBody("front_frame", Hc, H, s["mH"],
                     (me.inertia(Hr, s["IHxx"], s["IHyy"], s["IHzz"], 0, 0, s["IHxz"]), Hc)),
        me.RigidBody("front_wheel", Fh, F, s["mF"],
                     (me.inertia(H, s["IFxx"], s["IFyy"], s["IFxx"]), Fh)),
    ]
    loads = [(b.masscenter, b.mass * g * N.z) for b in bodies]

    kane = me.KanesMethod(N, q_ind=q, u_ind=u, kd_eqs=[qi.diff() - ui for qi, ui in zip(q, u)])
    kane.kanes_equations(bodies, loads)
    mass = kane.mass_matrix
    forcing = kane.forcing

    # No slip: the wheels' material points at the contacts have zero velocity in the plane.
    v_rear = Rh.vel(N) + R.ang_vel_in(N).cross(P.pos_from(Rh))
    v_front = Fh.vel(N) + F.ang_vel_in(N).cross(Q.pos_from(Fh))
    height = Q.pos_from(O).dot(N.z)
    grad = sp.Matrix([height]).jacobian(q)
    cons = sp.Matrix([v_rear.dot(N.x), v_rear.dot(N.y), v_front.dot(N.x), v_front.dot(N.y),
                      (grad * sp.Matrix(u))[0]])
    if cons.atoms(sp.Derivative):
        raise RuntimeError("constraints not written in u")
    a_mat = cons.jacobian(u)
    a_dot_u = cons.jacobian(q) * sp.Matrix(u)  # d/dt (A(q) u) at fixed u, with q' = u

    energy = sum(b.kinetic_energy(N) for b in bodies) \
        - sum(b.mass * g * b.masscenter.pos_from(O).dot(N.z) for b in bodies)

    qs = sp.symbols("q0:8")
    us = sp.symbols("v0:8")
    to_plain = dict(zip(q, qs)) | dict(zip(u, us))
    values = {s[k]: v for k, v in PARAMS.items()}

    def compile_(expr):
        plain = me.msubs(expr, to_plain).subs(values)
        return sp.lambdify([qs, us], plain, modules="numpy", cse=True)

    return dict(mass=compile_(mass), forcing=compile_(forcing), A=compile_(a_mat),
                Adot_u=compile_(a_dot_u), height=compile_(height), grad=compile_(grad),
                energy=compile_(energy))


class Bicycle:
    """Numeric nonlinear model (complex-step safe: every operation is analytic)."""

    def __init__(self, fns):
        self.f = fns

    def _arr(self, fn, q, u):
        return np.array(fn(q, u), dtype=np.result_type(q, u, float))

    def full_speeds(self, q, u_ind):
        """All eight speeds from the independent ones (phi', delta', thetaR')."""
        a = self._arr(self.f["A"], q, np.zeros(8))
        u = np.zeros(8, dtype=np.result_type(q, u_ind, float))
        u[IND] = u_ind
        u[DEP] = np.linalg.solve(a[:, DEP], -a[:, IND] @ np.asarray(u_ind))
        return u

    def accelerations(self, q, u):
        """Kane's nonholonomic equations: all eight u' from (q, u) with A u = 0."""
        a = self._arr(self.f["A"], q, u)
        mass = self._arr(self.f["mass"], q, u)
        forcing = self._arr(self.f["forcing"], q, u).reshape(8)
        adu = self._arr(self.f["Adot_u"], q, u).reshape(5)
        basis = np.zeros((8, 3), dtype=a.dtype)
        basis[IND] = np.eye(3)
        basis[DEP] = np.linalg.solve(a[:, DEP], -a[:, IND])
        part = np.zeros(8, dtype=a.dtype)
        part[DEP] = np.linalg.solve(a[:, DEP], -adu)
        ud_ind = np.linalg.solve(basis.T @ mass @ basis, basis.T @ (forcing - mass @ part))
        return basis @ ud_ind + part

    def multipliers(self, q, u):
        """[M A^T; A 0][u'; -lam] = [f; -A'u]: returns (u', lam), lam = generalized forces."""
        a = self._arr(self.f["A"], q, u)
        mass = self._arr(self.f["mass"], q, u)
        forcing = self._arr(self.f["forcing"], q, u).reshape(8)
        adu = self._arr(self.f["Adot_u"], q, u).reshape(5)
        kkt = np.block([[mass, a.T], [a, np.zeros((5, 5))]])
        sol = np.linalg.solve(kkt, np.concatenate([forcing, -adu]))
        return sol[:8], -sol[8:]

    def pitch(self, phi, delta, theta0=0.0):
        """theta with f(q) = 0 by Newton (complex-safe)."""
        theta = theta0 + 0 * phi * delta
        for _ in range(50):
            q = np.array([0, 0, 0, phi, theta, delta, 0, 0], dtype=np.result_type(phi, delta,
                                                                                   float))
            h = self.f["height"](q, np.zeros(8))
            dh = np.array(self.f["grad"](q, np.zeros(8))).reshape(8)[4]
            step = h / dh
            theta = theta - step
            if abs(step) < 1e-16:
                break
        return theta

    def rhs(self, _t, state):
        q, u = state[:8], state[8:]
        return np.concatenate([u, self.accelerations(q, u)])

    def energy(self, q, u):
        return float(self.f["energy"](q, u))


def reduced_field(bike, v, z):
    """(phi'', delta'') at lean/steer state z = (phi, delta, phi', delta'), straight run at v."""
    phi, delta, phid, deltad = z
    theta = bike.pitch(phi, delta)
    q = np.array([0, 0, 0, phi, theta, delta, 0, 0], dtype=np.result_type(*z, float))
    u = bike.full_speeds(q, np.array([phid, deltad, -v / PARAMS["rR"]], dtype=q.dtype))
    ud = bike.accelerations(q, u)
    return ud[[3, 5]]


def state_matrix(bike, v):
    """4x4 Jacobian at upright straight running, by complex-step differentiation (exact to
    round-off: no subtraction of nearby values)."""
    h = 1e-30
    jac = np.zeros((2, 4))
    for k in range(4):
        z = np.zeros(4, dtype=complex)
        z[k] = 1j * h
        jac[:, k] = reduced_field(bike, v, z).imag / h
    return np.block([[np.zeros((2, 2)), np.eye(2)], [jac]])


def benchmark_matrix(v, g=PARAMS["g"]):
    minv = np.linalg.inv(M_BENCH)
    return np.block([[np.zeros((2, 2)), np.eye(2)],
                     [-minv @ (g * K0_BENCH + v * v * K2_BENCH), -v * minv @ C1_BENCH]])


def sorted_eigs(mat):
    ev = np.linalg.eigvals(mat)
    return ev[np.lexsort((ev.imag, ev.real))]


def eig_distance(a, b):
    """Max distance under the best matching (4 values: all permutations)."""
    import itertools
    return min(max(abs(a[i] - b[p[i]]) for i in range(4)) for p in itertools.permutations(range(4)))


def check_linear(bike):
    out = {}
    worst = 0.0
    for v in np.arange(0, 11, 1.0):
        d = eig_distance(np.linalg.eigvals(state_matrix(bike, v)),
                         np.linalg.eigvals(benchmark_matrix(v)))
        worst = max(worst, d)
        print(f"  v = {v:4.1f}: eigenvalues {np.array2string(sorted_eigs(state_matrix(bike, v)), precision=13)}"
              f"  |diff| {d:.2e}")
    out["eig_max_diff"] = worst
    # The benchmark's M^-1 (g K0), M^-1 K2, M^-1 C1 recovered from A(v) at v = 0, 1, 2.
    a0, a1, a2 = (state_matrix(bike, v)[2:] for v in (0.0, 1.0, 2.0))
    stiff0 = -a0[:, :2]
    damp = -(a1[:, 2:])
    k2 = (-a2[:, :2] - stiff0) / 4.0
    minv = np.linalg.inv(M_BENCH)
    out["MinvgK0_diff"] = np.abs(stiff0 - minv @ (PARAMS["g"] * K0_BENCH)).max()
    out["MinvK2_diff"] = np.abs(k2 - minv @ K2_BENCH).max()
    out["MinvC1_diff"] = np.abs(damp - minv @ C1_BENCH).max()

    def weave_re(v):
        ev = np.linalg.eigvals(state_matrix(bike, v))
        return max(e.real for e in ev if abs(e.imag) > 1e-6)

    def capsize_re(v):
        ev = np.linalg.eigvals(state_matrix(bike, v))
        return max(e.real for e in ev if abs(e.imag) <= 1e-6)

    out["weave_speed"] = brentq(weave_re, 4.0, 4.6, xtol=1e-15, rtol=1e-15)
    out["capsize_speed"] = brentq(capsize_re, 5.8, 6.3, xtol=1e-15, rtol=1e-15)
    return out


def run(bike, phid0, deltad0, v=5.0, t_end=5.0, tol=RTOL):
    q0 = np.zeros(8)
    assert abs(bike.f["height"](q0, np.zeros(8))) < 1e-15  # theta = 0 is the upright pitch
    u0 = bike.full_speeds(q0, np.array([phid0, deltad0, -v / PARAMS["rR"]]))
    t_eval = np.linspace(0.0, t_end, int(round(t_end / 0.01)) + 1)
    sol = solve_ivp(bike.rhs, (0.0, t_end), np.concatenate([q0, u0]), method="DOP853",
                    rtol=tol, atol=tol, t_eval=t_eval)
    if not sol.success:
        raise RuntimeError(sol.message)
    rows = []
    e0 = bike.energy(q0, u0)
    drift = 0.0
    height = 0.0
    cons = 0.0
    for k, t in enumerate(sol.t):
        q, u = sol.y[:8, k], sol.y[8:, k]
        e = bike.energy(q, u)
        drift = max(drift, abs(e - e0) / abs(e0))
        height = max(height, abs(bike.f["height"](q, u)))
        cons = max(cons, np.abs(np.array(bike.f["A"](q, u)) @ u).max())
        rows.append([t, *q, *u, e])
    return np.array(rows), dict(energy0=e0, rel_energy_drift=drift, max_height=height,
                                max_velocity_constraint=cons, nfev=sol.nfev)


def write_csv(path, rows, title):
    with open(path, "w") as fh:
        fh.write(f"# {title}\n")
        fh.write("# generated by tests/reference/whipple_bicycle_reference.py (conventions in its "
                 "header); DOP853 rtol = atol = 1e-13\n")
        fh.write(",".join(COLUMNS) + "\n")
        for row in rows:
            fh.write(",".join(f"{val:.17g}" for val in row) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--check-only", action="store_true", help="verify, write no csv")
    args = ap.parse_args()

    t0 = time.time()
    bike = Bicycle(derive())
    print(f"derivation (KanesMethod + lambdify): {time.time() - t0:.1f} s")

    rear, front = static_normal_loads(PARAMS)
    print(f"static normal loads at upright rest: rear {rear:.17g} N, front {front:.17g} N")
    q0 = np.zeros(8)
    for v in (0.0, 5.0):
        u0 = bike.full_speeds(q0, np.array([0.0, 0.0, -v / PARAMS["rR"]]))
        ud, lam = bike.multipliers(q0, u0)
        print(f"  model at upright, v = {v}: front height multiplier {lam[4]:.17g} "
              f"(-N_F + this = {lam[4] + front:.2e}), |u'| = {np.abs(ud).max():.1e}")

    t1 = time.time()
    lin = check_linear(bike)
    print(f"linear checks ({time.time() - t1:.1f} s):")
    for k, val in lin.items():
        print(f"  {k}: {val:.17g}" if "speed" in k else f"  {k}: {val:.2e}")
    print(f"  weave speed diff {lin['weave_speed'] - WEAVE_SPEED:.2e}, "
          f"capsize speed diff {lin['capsize_speed'] - CAPSIZE_SPEED:.2e}")

    ok = lin["eig_max_diff"] < 1e-10 and abs(lin["weave_speed"] - WEAVE_SPEED) < 1e-10 \
        and abs(lin["capsize_speed"] - CAPSIZE_SPEED) < 1e-10
    for name, phid0, deltad0 in (("whipple_bicycle_reference.csv", 0.5, 0.0),
                                 ("whipple_bicycle_reference_large.csv", 2.0, 1.0)):
        t2 = time.time()
        rows, info = run(bike, phid0, deltad0)
        print(f"{name}: phi'(0) = {phid0}, delta'(0) = {deltad0}, v = 5: "
              f"E0 = {info['energy0']:.17g} J, max rel energy drift {info['rel_energy_drift']:.2e}, "
              f"max |front height| {info['max_height']:.2e} m, max |A u| "
              f"{info['max_velocity_constraint']:.2e}, {info['nfev']} evaluations, "
              f"{time.time() - t2:.1f} s")
        check, _ = run(bike, phid0, deltad0, tol=TIGHT)
        err = np.abs(check[:, 1:17] - rows[:, 1:17]).max(axis=0)
        print(f"  max |difference| to a run at rtol = atol = {TIGHT:g} (error estimate): "
              f"coordinates {err[:8].max():.1e}, rates {err[8:].max():.1e}")
        print(f"  final: phi {rows[-1][4]:.17g}, delta {rows[-1][6]:.17g}, psi {rows[-1][3]:.17g}")
        ok = ok and info["rel_energy_drift"] < 1e-10 and err.max() < 1e-10
        if not args.check_only:
            write_csv(os.path.join(args.out_dir, name), rows,
                      f"Whipple bicycle (Meijaard et al. 2007), v = 5 m/s, phi_dot(0) = {phid0}, "
                      f"delta_dot(0) = {deltad0}, other q(0) = 0")
    print(f"total {time.time() - t0:.1f} s; {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    sys.exit(main())
