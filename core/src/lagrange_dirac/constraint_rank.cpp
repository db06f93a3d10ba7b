#include "lagrange_dirac/constraint_rank.hpp"

#include <algorithm>
#include <sstream>

#include "dirac/error.hpp"

namespace dirac::lagrange_dirac {
namespace {

constexpr double kRelativeTolerance = 1e-10;

std::string AtQ0(const std::vector<std::string>& coordinates, const Eigen::VectorXd& q0) {
  if (q0.size() == 0) return "the initial point";
  std::ostringstream out;
  out.precision(6);
  out << "q0 (";
  for (Eigen::Index i = 0; i < q0.size(); ++i) {
    if (i) out << ", ";
    out << (static_cast<std::size_t>(i) < coordinates.size()
                ? coordinates[static_cast<std::size_t>(i)]
                : "q" + std::to_string(i))
        << " = " << q0[i];
  }
  out << ")";
  return out.str();
}

int Rank(const Eigen::MatrixXd& a, double scale) {
  if (a.rows() == 0) return 0;
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(a);
  const Eigen::VectorXd& s = svd.singularValues();
  return static_cast<int>((s.array() > kRelativeTolerance * std::max(scale, 1e-300)).count());
}

}  // namespace

void RequireIndependentConstraints(const Eigen::MatrixXd& omega, const Eigen::MatrixXd& mass,
                                   const std::vector<std::string>& constraints,
                                   const std::vector<std::string>& coordinates,
                                   const Eigen::VectorXd& q0) {
  auto name = [&](Eigen::Index r) {
    return static_cast<std::size_t>(r) < constraints.size()
               ? constraints[static_cast<std::size_t>(r)]
               : "#" + std::to_string(r + 1);
  };
  const std::string where = AtQ0(coordinates, q0);
  const double mass_scale = mass.size() ? mass.cwiseAbs().maxCoeff() : 0.0;
  if (mass.size() && (mass_scale == 0.0 || Rank(mass, mass_scale) < mass.rows())) {
    std::ostringstream out;
    out << "the Lagrangian is singular at " << where << ": the velocity Hessian d2L/dv2 has rank "
        << (mass_scale == 0.0 ? 0 : Rank(mass, mass_scale)) << " < " << mass.rows()
        << "; this formulation needs a regular Lagrangian (check masses and inertias, or use "
           "formulation: constraint_algorithm)";
    throw ModelError(out.str());
  }
  if (omega.rows() == 0) return;
  double scale = 0.0;
  for (Eigen::Index r = 0; r < omega.rows(); ++r) scale = std::max(scale, omega.row(r).norm());
  for (Eigen::Index r = 0; r < omega.rows(); ++r) {
    if (omega.row(r).norm() <= kRelativeTolerance * std::max(scale, 1.0)) {
      throw ModelError("the constraint form " + name(r) + " vanishes at " + where +
                       ": the distribution has lower rank there; start away from this point");
    }
  }
  // Greedy: a row that adds no rank depends on the rows before it; name the smallest such set.
  for (Eigen::Index r = 1; r < omega.rows(); ++r) {
    if (Rank(omega.topRows(r + 1), scale) > Rank(omega.topRows(r), scale)) continue;
    std::vector<Eigen::Index> partners;
    for (Eigen::Index s = 0; s < r; ++s) {
      // Row s is needed if dropping it from rows 0..r-1 makes row r independent.
      Eigen::MatrixXd rest(r, omega.cols());
      Eigen::Index at = 0;
      for (Eigen::Index t = 0; t < r; ++t)
        if (t != s) rest.row(at++) = omega.row(t);
      rest.row(at) = omega.row(r);
      if (Rank(rest, scale) == Rank(omega.topRows(r), scale)) partners.push_back(s);
    }
    std::ostringstream out;
    out << "constraints ";
    for (std::size_t i = 0; i < partners.size(); ++i) out << (i ? ", " : "") << name(partners[i]);
    out << " and " << name(r) << " are dependent at " << where
        << ": remove one or make them independent (the multipliers are not determined)";
    throw ModelError(out.str());
  }
}

}  // namespace dirac::lagrange_dirac
