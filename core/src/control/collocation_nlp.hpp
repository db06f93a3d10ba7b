#pragma once
// Internal to control/: the transcription of an optimal-control problem on a mesh into a
// SparseNlp (direct collocation on the group).

#include <Eigen/Dense>

#include <optional>
#include <utility>
#include <vector>

#include "control/collocation_dynamics.hpp"
#include "control/collocation_group.hpp"
#include "control/sparse_nlp.hpp"
#include "dirac/scenario.hpp"

namespace dirac::control {

/// Unknowns: T (when the horizon is free), then per node k = 0..N the state x_k = (q, y) and
/// the controls u_k. Constraints: trapezoidal defects x_{k+1} - x_k - h/2 (f_k + f_{k+1}) = 0
/// of the controlled equations (h = T / N: free time by scaling), and, when final group
/// components are fixed, their rows r(G_N) = 0 (GroupRows: Log(R_N^T R*) on SO(3), the fixed
/// components on SE(2)) with G_{k+1} = G_k Exp(h (xi_k + xi_{k+1}) / 2) from the given G_0: the
/// group element is a product of exponentials, on the group to rounding, with no norm
/// constraint. Boundary values and bounds are bounds on the unknowns; path constraints
/// g(t_k, x_k, u_k) <= 0 are rows at every node k = 0..N (after the defects and the attitude
/// rows). Cost: the trapezoidal quadrature of C plus the terminal cost phi(T, x_N). First
/// derivatives exact (forward mode on the tapes; the group rows through
/// the right Jacobians of Exp and the inverse left Jacobian of Log); the Jacobian pattern is
/// built once in the constructor.
class CollocationNlp : public SparseNlp {
 public:
  /// Throws ScenarioError for boundary conditions it does not cover (a free initial group
  /// element, a partly fixed SO(3) attitude or SE(2) position), naming the quantity.
  CollocationNlp(const Scenario& scenario, const CollocationDynamics& dynamics, int intervals);

  int num_variables() const override { return num_variables_; }
  int num_constraints() const override { return num_constraints_; }
  void Bounds(double* x_l, double* x_u, double* g_l, double* g_u) const override;
  void StartingPoint(double* x) const override;
  double Objective(const double* w) const override;
  void ObjectiveGradient(const double* w, double* gradient) const override;
  void Constraints(const double* w, double* g) const override;
  const std::vector<std::pair<int, int>>& JacobianPattern() const override { return pattern_; }
  void JacobianValues(const double* w, double* values) const override;
  /// The exact Hessian of the Lagrangian (collocation_hessian.cpp): node blocks from the tapes'
  /// second derivatives, the free time's row and column, and, with the attitude rows, a dense
  /// block over the states the body velocity reads (see there).
  const std::vector<std::pair<int, int>>& HessianPattern() const override {
    return hessian_pattern_;
  }
  void HessianValues(const double* w, double sigma, const double* lambda,
                     double* values) const override;

  int intervals() const { return N_; }
  double FinalTime(const double* w) const { return free_time_ ? w[0] : horizon_; }
  /// Index of state i (control j) at node k in the unknowns.
  int StateIndex(int k, int i) const { return offset_ + k * (d_ + m_) + i; }
  int ControlIndex(int k, int j) const { return offset_ + k * (d_ + m_) + d_ + j; }
  bool has_group() const { return has_group_; }
  /// The group rows (none when no final group component is fixed).
  const GroupRows& group_rows() const { return group_rows_; }
  /// Row of path constraint j at node k.
  int PathRow(int k, int j) const { return path_row_ + k * p_ + j; }
  /// The group element at every node (G_0 ... G_N) for the unknowns w.
  std::vector<Eigen::Matrix3d> Attitudes(const double* w) const;

 private:
  void BuildHessianPattern();
  void GroupHessian(const double* w, const double* lambda, double* values) const;
  void GroupJacobian(const double* w, double* values) const;  ///< the attitude rows
  void PathJacobian(const double* w, double* values) const;   ///< the path rows
  // exp increments phi_k = h xi-bar_k and the body velocities at the nodes.
  void Increments(const double* w, std::vector<Eigen::Vector3d>& xi,
                  std::vector<Eigen::Vector3d>& phi) const;

  const CollocationDynamics& dynamics_;
  int N_ = 0, d_ = 0, m_ = 0, offset_ = 0;
  int p_ = 0, path_row_ = 0;  ///< path constraints per node, their first row
  bool free_time_ = false;
  double horizon_ = 1.0, horizon_min_ = 0.0, horizon_max_ = 0.0;
  int num_variables_ = 0, num_constraints_ = 0;
  std::vector<double> lower_, upper_, start_;           ///< per node, state then controls (d + m)
  std::vector<std::optional<double>> initial_, final_;  ///< fixed end states
  bool has_group_ = false;                              ///< final group rows present
  GroupRows group_rows_;                                ///< the group and its final rows
  Eigen::Matrix3d R0_ = Eigen::Matrix3d::Identity();    ///< G_0
  std::vector<std::pair<int, int>> pattern_;
  std::vector<std::pair<int, int>> hessian_pattern_;
  std::vector<int> node_entry_;    ///< per node, (d + m)^2: entry of (a, b) (both orders)
  std::vector<int> time_entry_;    ///< per node, d + m: entry of (T, z_k c); then (T, T) last
  std::vector<int> group_states_;  ///< the states the body velocity reads
  std::vector<int> group_entry_;   ///< ((N + 1) |S|)^2: entry of the state pair (both orders)
};

}  // namespace dirac::control
