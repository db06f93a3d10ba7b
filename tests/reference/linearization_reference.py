#!/usr/bin/python3
"""Independent reference numbers for tests/core/linearization/test_linearization.cpp (issue 38).

    /usr/bin/python3 tests/reference/linearization_reference.py

1. The n-link planar chain (families.hpp, pendulum_chain: absolute angles, point masses m on
   links of length l) hanging at rest: M_ij = m l^2 (n + 1 - max(i, j)), K = diag(m g l (n + 1 - j));
   the eigenvalues of the linearization are +-i sqrt(eig(M^-1 K)) (SciPy).
2. The Whipple bicycle benchmark (Meijaard, Papadopoulos, Ruina, Schwab 2007): from the
   benchmark matrices M, C1, K0, K2 (docs/linearization.md), the four eigenvalues of
   [[0, I], [-M^-1 (g K0 + v^2 K2), -v M^-1 C1]] for v = 0 ... 10 m/s, and the weave and capsize
   speeds (a real part crossing zero; scipy.optimize.brentq to 1e-15).
"""
import numpy as np
import scipy.linalg
import scipy.optimize

np.set_printoptions(precision=17)


def chain(n, m=1.0, l=1.0, g=9.81):
    M = np.array([[m * l * l * (n + 1 - max(i, j)) for j in range(1, n + 1)] for i in range(1, n + 1)])
    K = np.diag([m * g * l * (n + 1 - j) for j in range(1, n + 1)])
    w2 = np.sort(scipy.linalg.eigvals(np.linalg.solve(M, K)).real)
    return np.sqrt(w2)


M = np.array([[80.81722, 2.31941332208709], [2.31941332208709, 0.29784188199686]])
C1 = np.array([[0.0, 33.86641391492494], [-0.85035641456978, 1.68540397397560]])
K0 = np.array([[-80.95, -2.59951685249872], [-2.59951685249872, -0.80329488458618]])
K2 = np.array([[0.0, 76.59734589573222], [0.0, 2.65431523794604]])
g = 9.81


def bicycle(v):
    Minv = np.linalg.inv(M)
    A = np.block([[np.zeros((2, 2)), np.eye(2)], [-Minv @ (g * K0 + v * v * K2), -v * Minv @ C1]])
    return np.linalg.eigvals(A)


def weave_re(v):  # the complex pair's real part
    e = bicycle(v)
    return max(e[np.abs(e.imag) > 1e-9].real)


def capsize_re(v):  # the real eigenvalue nearest zero
    e = bicycle(v)
    r = e[np.abs(e.imag) <= 1e-9].real
    return r[np.argmin(np.abs(r))]


if __name__ == "__main__":
    for n in (2, 4, 6):
        print("chain n=%d omega:" % n, ", ".join("%.17g" % w for w in chain(n)))
    for v in range(11):
        e = sorted(bicycle(float(v)), key=lambda z: (-z.real, -z.imag))
        print("bicycle v=%2d:" % v, ", ".join("{%.17g, %.17g}" % (z.real, z.imag) for z in e))
    print("weave speed   %.17g" % scipy.optimize.brentq(weave_re, 4.0, 4.5, xtol=1e-15))
    print("capsize speed %.17g" % scipy.optimize.brentq(capsize_re, 5.5, 6.5, xtol=1e-15))
