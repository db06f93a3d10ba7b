#include "linearization/reduced_point.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "dirac/error.hpp"

namespace dirac::linearization {
namespace {

using Complex = std::complex<double>;

std::string Number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// The rate of a state, in words: "d(alpha)/dt" for a coordinate, "d(valpha)/dt" for a speed.
std::string RateName(const std::string& state) { return "d(" + state + ")/dt"; }

// The sort key's real part: rounding noise (|re| <= 1e-10 of the spectrum's size) counts as 0,
// so that eigenvalues on the imaginary axis sort by their frequency, not by their noise.
double RealKey(const Complex& z, double size) {
  return std::abs(z.real()) <= 1e-10 * size ? 0.0 : z.real();
}

struct ComesFirst {
  double size;
  bool operator()(const Complex& a, const Complex& b) const {
    const double ra = RealKey(a, size), rb = RealKey(b, size);
    if (ra != rb) return ra > rb;
    return a.imag() > b.imag();
  }
};

double SpectrumSize(const Eigen::VectorXcd& values) {
  double size = 1.0;
  for (Eigen::Index i = 0; i < values.size(); ++i) size = std::max(size, std::abs(values[i]));
  return size;
}

}  // namespace

std::vector<std::complex<double>> SortedEigenvalues(const Eigen::MatrixXd& A) {
  std::vector<Complex> values;
  if (A.rows() == 0) return values;
  Eigen::EigenSolver<Eigen::MatrixXd> solver(A, false);
  for (Eigen::Index i = 0; i < A.rows(); ++i) values.push_back(solver.eigenvalues()[i]);
  std::sort(values.begin(), values.end(), ComesFirst{SpectrumSize(solver.eigenvalues())});
  return values;
}

std::vector<std::size_t> KeptStates(const ReducedPoint& p) {
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < p.names.size(); ++i)
    if (i >= p.num_coordinates || !p.ignorable[i]) kept.push_back(i);
  return kept;
}

Linearization Finish(ReducedPoint p, double tolerance, bool check_rates,
                     const std::vector<std::string>* fixed_states) {
  Linearization out = std::move(p.report);
  out.formulation = p.formulation;
  out.controls = p.controls;
  const std::size_t nz = p.names.size();
  const double scale = std::max(1.0, p.J.cwiseAbs().maxCoeff());
  std::vector<std::size_t> kept = KeptStates(p);

  // An ignorable coordinate: no kept rate may depend on it.
  for (std::size_t c = 0; c < p.num_coordinates; ++c) {
    if (!p.ignorable[c]) continue;
    (p.named[c] ? out.ignorable_named : out.ignorable_found).push_back(p.names[c]);
    for (std::size_t r : kept) {
      const double d = p.J(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
      if (std::abs(d) > 1e-8 * scale)
        throw ModelError("'" + p.names[c] + "' is not an ignorable coordinate here: " +
                         RateName(p.names[r]) + " depends on it (derivative " + Number(d) + ")");
    }
  }
  // Speeds conserved to first order: their row (over the kept states) vanishes.
  std::vector<std::size_t> keep;
  for (std::size_t r : kept) {
    bool vanishes = r >= p.num_coordinates;
    for (std::size_t c : kept)
      vanishes &= std::abs(p.J(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c))) <=
                  1e-10 * scale;
    if (fixed_states)
      vanishes =
          std::find(fixed_states->begin(), fixed_states->end(), p.names[r]) == fixed_states->end();
    if (vanishes)
      out.dropped_speeds.push_back(p.names[r]);
    else
      keep.push_back(r);
  }
  // The operating point: every kept state's and dropped speed's rate vanishes.
  out.rate_residual = 0.0;
  for (std::size_t r : kept) {
    const double rate = std::abs(p.rates[static_cast<Eigen::Index>(r)]);
    if (!(rate <= out.rate_residual)) {
      out.rate_residual = rate;
      out.rate_residual_state = p.names[r];
    }
  }
  if (check_rates && !(out.rate_residual <= tolerance))
    throw ModelError("the state is not an equilibrium or steady motion: " +
                     RateName(out.rate_residual_state) + " = " +
                     Number(p.rates[static_cast<Eigen::Index>(
                         std::find(p.names.begin(), p.names.end(), out.rate_residual_state) -
                         p.names.begin())]) +
                     " (tolerance " + Number(tolerance) +
                     "); name ignorable coordinates with --ignorable, or search from this state "
                     "with --find");

  const auto nk = static_cast<Eigen::Index>(keep.size());
  out.A.resize(nk, nk);
  out.B.resize(nk, p.B.cols());
  out.states.clear();
  out.num_coordinate_states = 0;
  for (Eigen::Index i = 0; i < nk; ++i) {
    const auto r = static_cast<Eigen::Index>(keep[static_cast<std::size_t>(i)]);
    out.states.push_back(p.names[static_cast<std::size_t>(r)]);
    if (static_cast<std::size_t>(r) < p.num_coordinates) ++out.num_coordinate_states;
    for (Eigen::Index j = 0; j < nk; ++j)
      out.A(i, j) = p.J(r, static_cast<Eigen::Index>(keep[static_cast<std::size_t>(j)]));
    if (p.B.cols() > 0) out.B.row(i) = p.B.row(r);
  }
  if (p.M.size() > 0) {
    std::vector<Eigen::Index> speeds;
    for (std::size_t r : keep)
      if (r >= p.num_coordinates)
        speeds.push_back(static_cast<Eigen::Index>(r - p.num_coordinates));
    const auto ns = static_cast<Eigen::Index>(speeds.size());
    out.mass_matrix.resize(ns, ns);
    for (Eigen::Index i = 0; i < ns; ++i)
      for (Eigen::Index j = 0; j < ns; ++j)
        out.mass_matrix(i, j) =
            p.M(speeds[static_cast<std::size_t>(i)], speeds[static_cast<std::size_t>(j)]);
  }
  (void)nz;

  // Spectrum and modes.
  out.eigenvalues.clear();
  out.modes.clear();
  if (nk == 0) return out;
  Eigen::EigenSolver<Eigen::MatrixXd> solver(out.A, true);
  std::vector<Eigen::Index> order(static_cast<std::size_t>(nk));
  std::iota(order.begin(), order.end(), 0);
  const ComesFirst first{SpectrumSize(solver.eigenvalues())};
  std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return first(solver.eigenvalues()[a], solver.eigenvalues()[b]);
  });
  for (Eigen::Index i : order) {
    const Complex lambda = solver.eigenvalues()[i];
    out.eigenvalues.push_back(lambda);
    if (lambda.imag() < 0.0) continue;
    Eigen::VectorXcd v = solver.eigenvectors().col(i);
    const Eigen::Index nc = static_cast<Eigen::Index>(out.num_coordinate_states);
    double coordinate_max = nc > 0 ? v.head(nc).cwiseAbs().maxCoeff() : 0.0;
    const bool by_coordinates = coordinate_max > 1e-9 * v.cwiseAbs().maxCoeff();
    const Eigen::Index from = by_coordinates ? 0 : nc, to = by_coordinates ? nc : nk;
    Eigen::Index big = from;
    for (Eigen::Index j = from; j < to; ++j)
      if (std::abs(v[j]) > std::abs(v[big])) big = j;
    v /= v[big];
    LinearMode mode;
    mode.eigenvalue = lambda;
    for (Eigen::Index j = 0; j < nk; ++j) mode.shape.push_back(v[j]);
    std::vector<Eigen::Index> dominant;
    for (Eigen::Index j = from; j < to; ++j)
      if (std::abs(v[j]) >= 0.5) dominant.push_back(j);
    std::stable_sort(dominant.begin(), dominant.end(), [&](Eigen::Index a, Eigen::Index b) {
      return std::abs(v[a]) > std::abs(v[b]);
    });
    for (Eigen::Index j : dominant)
      mode.dominant.push_back(out.states[static_cast<std::size_t>(j)]);
    out.modes.push_back(std::move(mode));
  }
  return out;
}

}  // namespace dirac::linearization
