#pragma once
// Internal: the boundary conditions of a shooting problem resolved against a model's explicit
// flow, and their residual rows with exact derivatives.
//
// At each end the state is (x, G): x the flow state, G the reconstructed group element. A row is
// a function of (x, G); its derivative is taken along dx = S w and G -> G Exp(eta w), with S
// (d x m) and eta (3 x m) the sensitivities of the end state with respect to m unknowns.

#include <Eigen/Dense>

#include <cstddef>
#include <string>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "geometry/lie_group.hpp"
#include "model/explicit_flow.hpp"

namespace dirac::control {

/// Conditions at one end of the horizon.
struct EndConditions {
  std::vector<std::pair<std::size_t, double>> coordinates;  ///< z index -> value
  bool group_all = false;  ///< the whole group element is fixed at group_target
  Eigen::Matrix3d group_target = Eigen::Matrix3d::Identity();
  bool se2_translation = false;  ///< SE2: (x, y) fixed at translation
  Eigen::Vector2d translation = Eigen::Vector2d::Zero();
  bool se2_angle = false;  ///< SE2: theta fixed at angle (modulo 2 pi)
  double angle = 0.0;
  std::vector<std::size_t> zero_costates;  ///< z indices that vanish (free fibre coordinates)
  bool config_transversality = false;      ///< the configuration is not fully fixed
  bool group_fixed_at_start = false;       ///< t = 0: the group element is g0 itself
  std::vector<std::size_t> fixed_base;     ///< fixed base coordinates (rows of the anchor)
  std::size_t transversality_rows = 0;     ///< rows of N^T p (k - rank of the fixed frame)

  std::size_t num_rows() const;
};

/// A shooting problem on a model's flow.
struct BoundaryProblem {
  bool has_group = false;
  geometry::MatrixGroup group = geometry::MatrixGroup::kSO3;
  double horizon = 0.0;
  std::vector<double> x0;        ///< initial state: exact where fixed, a guess elsewhere
  std::vector<bool> x0_unknown;  ///< which components of x(0) are unknowns
  Eigen::Matrix3d g0 = Eigen::Matrix3d::Identity();  ///< initial group element
  bool g0_unknown = false;
  EndConditions initial, final;
  std::size_t num_initial_unknowns() const;
};

/// Builds the problem of the scenario's `optimal_control:` or `boundary_value:` block. `x0`
/// is the flow state of the scenario's initial values. Throws ScenarioError naming the quantity
/// (unknown names, an SO3 element fixed only in part, dependent conditions, a count of
/// conditions that does not match the unknowns).
BoundaryProblem ResolveBoundaryProblem(const Scenario& scenario, const ExplicitFlow& flow,
                                       std::vector<double> x0);

/// Evaluates the rows of `end` at (x, G) with derivatives along (S, eta); `rows` and `jac`
/// (num_rows x m) are filled from row `offset`. With m = 0 (no sensitivities) only `rows`.
void EndRows(const EndConditions& end, const BoundaryProblem& problem, const ExplicitFlow& flow,
             double t, const double* x, const Eigen::Matrix3d& G, const Eigen::MatrixXd& S,
             const Eigen::MatrixXd& eta, const std::vector<double>& parameters,
             Eigen::VectorXd& rows, Eigen::MatrixXd& jac, std::size_t offset);

/// The same rows with the boundary data moved to a fraction s of the way from `from` (the end
/// state of a known motion) to the problem's targets (homotopy in the boundary data).
EndConditions Blend(const EndConditions& target, const EndConditions& from, double s,
                    geometry::MatrixGroup group);

/// The end conditions of `end` with its targets replaced by the values at (x, G): a problem
/// this motion solves exactly (the start of the homotopy).
EndConditions TargetsAt(const EndConditions& end, const ExplicitFlow& flow, double t,
                        const double* x, const Eigen::Matrix3d& G,
                        const std::vector<double>& parameters, geometry::MatrixGroup group);

}  // namespace dirac::control
