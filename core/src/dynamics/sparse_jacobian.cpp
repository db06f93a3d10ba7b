#include "dynamics/sparse_jacobian.hpp"

#include <cmath>
#include <random>

#include "dirac/error.hpp"

namespace dirac::dynamics {

double SparsePattern::density() const {
  if (size == 0) return 1.0;
  return static_cast<double>(nonzeros()) / (static_cast<double>(size) * static_cast<double>(size));
}

SparsePattern DetectPattern(const DenseJacobian& jacobian, std::size_t size, double t0,
                            const double* y0) {
  std::vector<char> seen(size * size, 0);
  std::vector<double> jac(size * size), y(y0, y0 + size);
  std::mt19937_64 random(0x5eed5a11);  // fixed: the same pattern in every run
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int point = 0; point < 3; ++point) {
    if (point > 0)
      for (std::size_t i = 0; i < size; ++i)
        y[i] = y0[i] + 1e-3 * (1.0 + std::abs(y0[i])) * unit(random);
    std::fill(jac.begin(), jac.end(), 0.0);
    try {
      jacobian(t0, y.data(), jac.data());
    } catch (const std::exception&) {
      if (point == 0) throw;
      continue;
    }
    bool finite = true;
    for (double v : jac) finite = finite && std::isfinite(v);
    if (!finite) {
      if (point == 0) throw NumericalError("the Jacobian is not finite at the initial state");
      continue;
    }
    for (std::size_t e = 0; e < jac.size(); ++e) seen[e] |= jac[e] != 0.0;
  }
  SparsePattern pattern;
  pattern.size = size;
  pattern.column_starts.reserve(size + 1);
  pattern.column_starts.push_back(0);
  for (std::size_t j = 0; j < size; ++j) {
    for (std::size_t i = 0; i < size; ++i)
      if (i == j || seen[j * size + i]) pattern.rows.push_back(static_cast<std::int64_t>(i));
    pattern.column_starts.push_back(static_cast<std::int64_t>(pattern.rows.size()));
  }
  return pattern;
}

bool MayUseSparse(LinearSolverMode mode, std::size_t size) {
  switch (mode) {
    case LinearSolverMode::kDense:
      return false;
    case LinearSolverMode::kSparse:
      return size > 0;
    case LinearSolverMode::kAuto:
      return size >= kSparseMinUnknowns;
  }
  return false;
}

bool UseSparse(LinearSolverMode mode, const SparsePattern& pattern) {
  if (!MayUseSparse(mode, pattern.size)) return false;
  return mode == LinearSolverMode::kSparse || pattern.density() <= kSparseMaxDensity;
}

}  // namespace dirac::dynamics
