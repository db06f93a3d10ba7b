#pragma once
// Internal to control/: the transcription of an optimal-control problem on a mesh into a
// SparseNlp (direct collocation on the group).

#include <Eigen/Dense>

#include <optional>
#include <utility>
#include <vector>

#include "control/collocation_chart.hpp"
#include "control/collocation_dynamics.hpp"
#include "control/collocation_group.hpp"
#include "control/sparse_nlp.hpp"
#include "dirac/scenario.hpp"

namespace dirac::control {

/// One collocation formula on an interval of length h between its local points (the two ends,
/// and for Hermite-Simpson the midpoint between them): defect rows
/// sum_l alpha[r][l] x_l + h sum_l beta[r][l] f_l = 0, and the quadrature h sum_l weight[l] C_l.
struct CollocationFormula {
  int points = 2;  ///< local points per interval (2: the ends; 3: ends and midpoint)
  int rows = 1;    ///< defect rows (of d each) per interval
  double alpha[2][3] = {};
  double beta[2][3] = {};
  double weight[3] = {};
  double fraction[3] = {};  ///< where local point l sits in the interval (0 ... 1)
  static CollocationFormula For(CollocationScheme scheme);
};

/// Unknowns: T (when the horizon is free), then per collocation point p = 0..P-1 (in time
/// order: the mesh nodes, and with Hermite-Simpson the interval midpoints between them) the
/// state x_p = (q, y) and the controls u_p, then (when final group components are fixed) the
/// group element at the nodes 1..N in a local chart, G_k = Gref_k Exp(eta_k) (eta_k, 3 each;
/// G_0 is the fixed initial element; Gref_k the reference elements: a guess, or the previous
/// solution's elements, re-centred so that eta starts at 0). The mesh is given as node fractions
/// 0 = s_0 < ... < s_N = 1 of the horizon (h_k = T (s_{k+1} - s_k): free time by scaling).
/// Constraints: the formula's defects per interval (Hermite-Simpson: the Simpson defect
/// x_{k+1} - x_k - h/6 (f_k + 4 f_m + f_{k+1}) and the Hermite midpoint
/// x_m - (x_k + x_{k+1})/2 - h/8 (f_k - f_{k+1}); trapezoidal: x_{k+1} - x_k - h/2 (f_k +
/// f_{k+1})); then, with the group, per interval the group defect Log(G_k^-1 G_{k+1}) - Phi_k = 0
/// (3 rows; collocation_increment.cpp: Phi_k the fourth-order Magnus increment with the group's
/// bracket, or the trapezoidal one) and the fixed final components r(G_N) = 0 (GroupRows:
/// Log(R_N^T R*) on SO(3), the fixed components on SE(2)); each row reads one interval's
/// unknowns, so the Jacobian and the Hessian are block-sparse (O(N)); G_k is a product of two
/// group elements, on the group to rounding, with no norm constraint. Boundary values and bounds
/// are bounds on the unknowns; path constraints g(t_p, x_p, u_p) <= 0 are rows at every point
/// (after the defects and the group rows). Cost: the formula's quadrature of C plus the terminal
/// cost phi(T, x_N). First derivatives exact (forward mode on the tapes; the chart maps by
/// second-order forward mode, collocation_chart.cpp); the Jacobian pattern is built once in the
/// constructor.
class CollocationNlp : public SparseNlp {
 public:
  /// Throws ScenarioError for boundary conditions it does not cover (a free initial group
  /// element, a partly fixed SO(3) attitude or SE(2) position), naming the quantity.
  CollocationNlp(const Scenario& scenario, const CollocationDynamics& dynamics,
                 std::vector<double> mesh, CollocationScheme scheme);
  /// A uniform mesh of `intervals`, the scheme of the scenario's collocation settings.
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
  /// The exact Hessian of the Lagrangian (collocation_hessian.cpp): point blocks from the tapes'
  /// second derivatives, the free time's row and column, and, with the group rows, per interval
  /// a block over its points' states the body velocity reads and one over (eta_k, eta_{k+1})
  /// (collocation_group.cpp).
  const std::vector<std::pair<int, int>>& HessianPattern() const override {
    return hessian_pattern_;
  }
  void HessianValues(const double* w, double sigma, const double* lambda,
                     double* values) const override;

  /// Replaces the starting point (e.g. a previous solution interpolated onto this mesh).
  void SetStartingPoint(std::vector<double> w) { warm_ = std::move(w); }
  /// Replaces the reference elements Gref_0 ... Gref_N of the chart (N + 1 of them, projected
  /// onto the group; Gref_0 is replaced by the fixed G_0): a previous solution's elements, with
  /// the unknowns' chart coordinates set to 0 (ClearChart). Ignored without group rows.
  void SetReference(const std::vector<Eigen::Matrix3d>& reference);
  const std::vector<Eigen::Matrix3d>& reference() const { return reference_; }
  /// Sets the chart coordinates eta_k in the unknowns w to 0 (no-op without group rows).
  void ClearChart(double* w) const;

  CollocationScheme scheme() const { return scheme_; }
  const CollocationFormula& formula() const { return formula_; }
  int intervals() const { return N_; }
  int num_points() const { return P_; }
  const std::vector<double>& mesh() const { return mesh_; }  ///< node fractions s_0 ... s_N
  double FinalTime(const double* w) const { return free_time_ ? w[0] : horizon_; }
  /// Fraction of the horizon at which point p sits (t_p = T s_p).
  double PointFraction(int p) const { return point_fraction_[p]; }
  /// The point of local point l of interval k; the point of node k.
  int LocalPoint(int k, int l) const { return k * (formula_.points - 1) + l; }
  int NodePoint(int k) const { return k * (formula_.points - 1); }
  /// Index of state i (control j) at point p in the unknowns.
  int PointIndex(int p, int c) const { return offset_ + p * (d_ + m_) + c; }
  /// Index of state i (control j) at node k in the unknowns.
  int StateIndex(int k, int i) const { return PointIndex(NodePoint(k), i); }
  int ControlIndex(int k, int j) const { return PointIndex(NodePoint(k), d_ + j); }
  bool has_group() const { return has_group_; }
  /// The group rows (none when no final group component is fixed).
  const GroupRows& group_rows() const { return group_rows_; }
  /// Row of path constraint j at point p.
  int PathRow(int p, int j) const { return path_row_ + p * p_ + j; }
  /// Row of defect component i of formula row r on interval k.
  int DefectRow(int k, int r, int i) const { return (k * formula_.rows + r) * d_ + i; }
  /// Index of chart coordinate a of node k (1 <= k <= N; with group rows only).
  int EtaIndex(int k, int a) const { return eta_offset_ + 3 * (k - 1) + a; }
  /// Row of component a of the group defect of interval k; the first final group row.
  int GroupDefectRow(int k, int a) const { return chart_row_ + 3 * k + a; }
  int FinalGroupRow() const { return chart_row_ + 3 * N_; }
  /// The group element at every node (G_0 ... G_N) for the unknowns w.
  std::vector<Eigen::Matrix3d> Attitudes(const double* w) const;

 private:
  void BuildPattern();
  void BuildHessianPattern();
  void GroupHessian(const double* w, const double* lambda, double* values) const;
  std::size_t GroupJacobian(const double* w, double* values) const;  ///< the group rows
  void DefaultReference();  ///< the starting point's elements bent toward the final rows
  void GroupConstraints(const double* w, double* g) const;
  void PathJacobian(const double* w, double* values) const;  ///< the path rows
  // The body velocities at the points and the increments Phi_k of the intervals.
  void Increments(const double* w, std::vector<Eigen::Vector3d>& xi,
                  std::vector<Eigen::Vector3d>& phi) const;

  const CollocationDynamics& dynamics_;
  CollocationScheme scheme_ = CollocationScheme::kHermiteSimpson;
  CollocationFormula formula_;
  std::vector<double> mesh_, point_fraction_;
  int N_ = 0, P_ = 0, d_ = 0, m_ = 0, offset_ = 0;
  int p_ = 0, path_row_ = 0;  ///< path constraints per point, their first row
  bool free_time_ = false;
  double horizon_ = 1.0, horizon_min_ = 0.0, horizon_max_ = 0.0;
  int num_variables_ = 0, num_constraints_ = 0;
  std::vector<double> lower_, upper_, start_;           ///< per point, state then controls (d + m)
  std::vector<double> warm_;                            ///< a starting point replacing start_
  std::vector<std::optional<double>> initial_, final_;  ///< fixed end states
  bool has_group_ = false;                              ///< final group rows present
  GroupRows group_rows_;                                ///< the group and its final rows
  Eigen::Matrix3d R0_ = Eigen::Matrix3d::Identity();    ///< G_0
  int eta_offset_ = 0, chart_row_ = 0;                  ///< first eta unknown, first group row
  std::vector<Eigen::Matrix3d> reference_;              ///< Gref_0 ... Gref_N
  std::vector<RelativeIncrement> relative_;             ///< per interval: Gref_k^-1 Gref_{k+1}
  std::vector<FinalChartRows> final_rows_;              ///< the final rows (one, with the group)
  std::vector<std::pair<int, int>> pattern_;
  std::vector<std::pair<int, int>> hessian_pattern_;
  std::vector<int> point_entry_;     ///< per point, (d + m)^2: entry of (a, b) (both orders)
  std::vector<int> time_entry_;      ///< per point, d + m: entry of (T, z_p c); then (T, T) last
  std::vector<int> group_states_;    ///< the states the body velocity reads
  std::vector<int> interval_entry_;  ///< per interval (L |S|)^2: entry of its points' state pair
  std::vector<int> eta_entry_;       ///< per interval 36: entry of (eta_k, eta_{k+1}) pairs
};

}  // namespace dirac::control
