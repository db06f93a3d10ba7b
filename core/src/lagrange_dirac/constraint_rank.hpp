#pragma once
/// @file constraint_rank.hpp
/// Before an integration starts: are the constraint one-forms independent at q0 and is the
/// Lagrangian regular there? Names the offending rows so a user can act on the message.

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace dirac::lagrange_dirac {

/// Checks the m x k constraint matrix `omega` (rows omega^r(q0)) and the k x k velocity Hessian
/// `mass` (W = d^2L/dv^2 at q0). `constraints` are the m constraint names, `coordinates` the n
/// coordinate names with their values `q0` (for the message). Throws ModelError:
/// - "the constraint form NAME vanishes at q0 (a1 = 0, a2 = 0): ..." for a zero row;
/// - "constraints A and B are dependent at q0 (x = 1, ...): ..." for a row in the span of the
///   rows before it (naming those it depends on);
/// - "the Lagrangian is singular at q0 (...): the velocity Hessian has rank r < k ..." if W is
///   singular (the Lagrange–Dirac formulation needs a regular Lagrangian).
/// Relative tolerance 1e-10 on the singular values.
void RequireIndependentConstraints(const Eigen::MatrixXd& omega, const Eigen::MatrixXd& mass,
                                   const std::vector<std::string>& constraints,
                                   const std::vector<std::string>& coordinates,
                                   const Eigen::VectorXd& q0);

}  // namespace dirac::lagrange_dirac
