#!/usr/bin/env python3
"""Independent NumPy reference of `simulation.method: isospectral` on Zeitlin's torus model.

Written from the mathematics, not from the engine's code: Zeitlin's su(N) basis of the flat
torus, T_m = c J_m with c = iN/(4 pi), J_m = eps^(m1 m2) g^m1 h^m2 (clock g = diag(eps^2j),
shift h, eps = exp(2 pi i/N)), so (T_m)_{j, j+m2} = c eps^(m1 m2 + 2 j m1); the real basis
C_m = (T_m + T_-m)/2, S_m = (T_m - T_-m)/(2i) on the half plane (m1 > 0, or m1 = 0 < m2), in the
engine's order (m1 = 0 ... M outer, m2 = -M ... M inner, cosine before sine).

The Euler-Poincare momentum p_a = Re tr(E_a W) (the engine pairs p with the basis by the trace
form; kappa = Re tr(E_a E_a) = -N^3/(32 pi^2) for every element), L = 1/2 sum |m|^2 y_m^2, so
y = p/|m|^2 and the Lax form is W' = [B, W] with B = -sum y_a E_a = kappa Lap^-1 W (Lap T_m =
-|m|^2 T_m). Lap^-1 acts diagonal by diagonal: the entries W[j, j+m2] of one wrapped diagonal
hold the modes with that m2, separated by an FFT over j (frequency 2 m1 mod N): O(N^2 log N).

The step is the isospectral midpoint (Modin & Viviani 2020): solve
  Wt = W + h/2 [B, Wt] + h^2/4 B Wt B,  B = B(Wt)
by fixed-point iteration to round-off, then W+ = 2 Wt - W - h^2/2 B Wt B.

Usage: zeitlin_isospectral.py N h steps out.txt  (writes p after `steps` steps, one per line,
and prints the mean process CPU time of a step and its fixed-point iterations on stdout).
"""
import sys
import time

import numpy as np


def half_plane_modes(N):
    M = (N - 1) // 2
    return [(m1, m2) for m1 in range(0, M + 1) for m2 in range(-M, M + 1)
            if m1 > 0 or (m1 == 0 and m2 > 0)]


def initial_momentum(N):
    """The test's initial momentum: a smooth, deterministic spectrum on every mode."""
    p = []
    for m1, m2 in half_plane_modes(N):
        r2 = m1 * m1 + m2 * m2
        p.append(np.exp(-0.3 * r2) * np.cos(1.3 * m1 + 0.7 * m2 + 0.2))
        p.append(np.exp(-0.3 * r2) * np.sin(0.9 * m1 - 1.1 * m2 + 0.5))
    return np.array(p)


class Torus:
    def __init__(self, N):
        self.N, self.M = N, (N - 1) // 2
        self.c = 1j * N / (4 * np.pi)
        self.eps = np.exp(2j * np.pi / N)
        self.kappa = -N ** 3 / (32 * np.pi ** 2)
        j = np.arange(N)
        self.rows = j
        # diagonal m2 (offset d = m2 mod N): columns (j + d) mod N
        self.cols = [(j + d) % N for d in range(N)]
        M = self.M
        m1 = np.arange(-M, M + 1)
        self.m1 = m1
        self.freq = (2 * m1) % N  # FFT index of mode m1 on a diagonal

    def coefficients(self, W):
        """w[m1 + M, m2 + M]: W = sum_m w_m T_m (m != 0)."""
        N, M = self.N, self.M
        w = np.zeros((N, N), dtype=complex)
        for m2 in range(-M, M + 1):
            d = W[self.rows, self.cols[m2 % N]]
            F = np.fft.fft(d)[self.freq]
            w[:, m2 + M] = self.eps ** (-(self.m1 * m2) % N) * F / (self.c * N)
        return w

    def matrix(self, w):
        N, M = self.N, self.M
        W = np.zeros((N, N), dtype=complex)
        for m2 in range(-M, M + 1):
            g = np.zeros(N, dtype=complex)
            g[self.freq] = w[:, m2 + M] * self.eps ** ((self.m1 * m2) % N)
            W[self.rows, self.cols[m2 % N]] += self.c * N * np.fft.ifft(g)
        return W

    def from_momentum(self, p):
        """W = (1/kappa) sum p_a E_a: kappa w_m = (p_C - i p_S)/2, kappa w_-m = (p_C + i p_S)/2."""
        M = self.M
        w = np.zeros((self.N, self.N), dtype=complex)
        for a, (m1, m2) in enumerate(half_plane_modes(self.N)):
            pc, ps = p[2 * a], p[2 * a + 1]
            w[m1 + M, m2 + M] = (pc - 1j * ps) / 2 / self.kappa
            w[-m1 + M, -m2 + M] = (pc + 1j * ps) / 2 / self.kappa
        return self.matrix(w)

    def momentum(self, W):
        """p_C = 2 kappa Re w_m, p_S = -2 kappa Im w_m."""
        w = self.coefficients(W)
        M = self.M
        out = []
        for m1, m2 in half_plane_modes(self.N):
            out += [2 * self.kappa * w[m1 + M, m2 + M].real,
                    -2 * self.kappa * w[m1 + M, m2 + M].imag]
        return np.array(out)

    def generator(self, W):
        """B = kappa Lap^-1 W."""
        M = self.M
        w = self.coefficients(W)
        m = np.arange(-M, M + 1)
        r2 = (m[:, None] ** 2 + m[None, :] ** 2).astype(float)
        r2[M, M] = np.inf  # the identity's coefficient: none in su(N)
        return self.kappa * self.matrix(-w / r2)

    iterations = 0

    def step(self, W, h):
        scale = np.abs(W).max()
        roundoff = 4 * np.finfo(float).eps * scale
        Wt, previous = W.copy(), np.inf
        for _ in range(100):
            B = self.generator(Wt)
            BW, WB = B @ Wt, Wt @ B
            BWB = B @ WB
            new = W + (h / 2) * (BW - WB) + (h * h / 4) * BWB
            change = np.abs(new - Wt).max()
            Wt = new
            self.iterations += 1
            if change <= roundoff or (change >= previous and change <= 1e-11 * scale):
                return 2 * Wt - W - (h * h / 2) * BWB
            previous = change
        raise RuntimeError("fixed-point iteration did not converge")


def main():
    N, h, steps, out = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    torus = Torus(N)
    W = torus.from_momentum(initial_momentum(N))
    start = time.process_time()
    for _ in range(steps):
        W = torus.step(W, h)
    elapsed = time.process_time() - start
    np.savetxt(out, torus.momentum(W), fmt="%.17e")
    print(f"{elapsed / max(steps, 1):.6e} s a step, {torus.iterations / max(steps, 1):.1f} "
          "fixed-point iterations a step")


if __name__ == "__main__":
    main()
