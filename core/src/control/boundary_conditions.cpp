#include "control/boundary_conditions.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "dirac/error.hpp"

namespace dirac::control {

using geometry::MatrixGroup;

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::optional<std::size_t> IndexOf(const std::vector<std::string>& names, const std::string& n) {
  const auto it = std::find(names.begin(), names.end(), n);
  if (it == names.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names.begin());
}

// Evaluates a tape with inputs [t, x, parameters].
std::vector<double> Eval(const CompiledFunction& f, double t, const double* x, std::size_t d,
                         const std::vector<double>& parameters) {
  std::vector<double> in{t};
  in.insert(in.end(), x, x + d);
  in.insert(in.end(), parameters.begin(), parameters.end());
  std::vector<double> out(f.num_outputs()), scratch(f.scratch_size());
  f.Evaluate(in.data(), out.data(), scratch.data());
  return out;
}

// The fixed part of the configuration frame at an end: rows map section variations eta^A
// (k of them) to variations of the fixed configuration quantities.
Eigen::MatrixXd FixedFrame(const EndConditions& end, const BoundaryProblem& problem,
                           const ExplicitFlow& flow, double t, const double* x,
                           const std::vector<double>& parameters) {
  const std::size_t k = flow.fibre.size(), n = flow.base.size();
  const std::vector<double> anchor = Eval(flow.anchor, t, x, flow.dimension(), parameters);
  const std::vector<double> body =
      Eval(flow.fibre_body_velocity, t, x, flow.dimension(), parameters);
  std::vector<Eigen::RowVectorXd> rows;
  for (std::size_t i : end.fixed_base)
    rows.push_back(Eigen::Map<const Eigen::RowVectorXd>(anchor.data() + i * k, k));
  auto body_row = [&](std::size_t r) {
    return Eigen::Map<const Eigen::RowVectorXd>(body.data() + r * k, k);
  };
  if (problem.has_group && body.size() == 3 * k) {
    if (end.group_all || end.group_fixed_at_start)
      for (std::size_t r = 0; r < 3; ++r) rows.push_back(body_row(r));
    if (end.se2_translation) rows.push_back(body_row(0)), rows.push_back(body_row(1));
    if (end.se2_angle) rows.push_back(body_row(2));
  }
  (void)n;
  Eigen::MatrixXd M(rows.size(), k);
  for (std::size_t r = 0; r < rows.size(); ++r) M.row(static_cast<Eigen::Index>(r)) = rows[r];
  return M;
}

// A basis N of the section variations that keep the fixed configuration quantities fixed.
Eigen::MatrixXd FreeDirections(const Eigen::MatrixXd& M, std::size_t k) {
  if (M.rows() == 0) return Eigen::MatrixXd::Identity(k, k);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(M, Eigen::ComputeFullV);
  const auto& sv = svd.singularValues();
  const double tol = 1e-10 * std::max(1.0, sv.size() ? sv(0) : 0.0);
  const Eigen::Index rank = (sv.array() > tol).count();
  return svd.matrixV().rightCols(static_cast<Eigen::Index>(k) - rank);
}

struct QuantityResolver {
  const Scenario& s;
  const ExplicitFlow& flow;
  bool so3 = false, se2 = false;
  std::string prefix;                  // SO3: "R"
  std::vector<std::string> se2_names;  // SE2: x, y, theta

  enum class Kind { kBase, kFibre, kGroupSO3, kGroupSE2 };
  struct Quantity {
    Kind kind;
    std::size_t index;  // base / fibre index, SO3 component, SE2 component
  };

  Quantity Resolve(const BoundaryCondition& bc) const {
    if (auto i = IndexOf(flow.base, bc.quantity)) return {Kind::kBase, *i};
    if (auto a = IndexOf(flow.fibre, bc.quantity)) return {Kind::kFibre, *a};
    if (so3)
      for (std::size_t c = 0; c < 3; ++c)
        if (bc.quantity == prefix + "." + "xyz"[c]) return {Kind::kGroupSO3, c};
    if (se2)
      if (auto c = IndexOf(se2_names, bc.quantity)) return {Kind::kGroupSE2, *c};
    throw ScenarioError(s.source_file, bc.where.line, bc.quantity,
                        "is no base coordinate, velocity or group component of this problem");
  }
};

// The flags and values of one end, read from its list (defaults: fixed at t = 0 at the
// scenario's values, free at t = T).
struct EndSpec {
  std::vector<std::optional<double>> base, fibre;  // nullopt: free
  std::optional<Eigen::Vector3d> so3;              // rotation vector; nullopt: free
  std::optional<Eigen::Vector2d> se2_translation;
  std::optional<double> se2_angle;
};

EndSpec ReadEnd(const std::vector<BoundaryCondition>& list, const QuantityResolver& q, bool initial,
                const std::vector<double>& x0, const Eigen::Matrix3d& g0, const Scenario& s) {
  const ExplicitFlow& flow = q.flow;
  EndSpec e;
  e.base.assign(flow.base.size(), std::nullopt);
  e.fibre.assign(flow.fibre.size(), std::nullopt);
  if (initial) {
    for (std::size_t i = 0; i < flow.base.size(); ++i)
      if (auto xi = IndexOf(flow.states, flow.base[i])) e.base[i] = x0[*xi];
    for (std::size_t a = 0; a < flow.fibre.size(); ++a)
      if (auto xi = IndexOf(flow.states, flow.fibre[a])) e.fibre[a] = x0[*xi];
    if (q.so3) e.so3 = geometry::Log(MatrixGroup::kSO3, g0);
    if (q.se2) {
      e.se2_translation = Eigen::Vector2d(g0(0, 2), g0(1, 2));
      e.se2_angle = std::atan2(g0(1, 0), g0(0, 0));
    }
  }
  int so3_listed = 0, so3_free = 0;
  Eigen::Vector3d so3_value = e.so3.value_or(Eigen::Vector3d::Zero());
  std::optional<double> se2[3];
  if (e.se2_translation) se2[0] = e.se2_translation->x(), se2[1] = e.se2_translation->y();
  if (e.se2_angle) se2[2] = *e.se2_angle;
  std::size_t so3_line = 0;
  for (const BoundaryCondition& bc : list) {
    const auto quantity = q.Resolve(bc);
    const std::optional<double> value = bc.free ? std::nullopt : std::optional<double>(bc.value);
    switch (quantity.kind) {
      case QuantityResolver::Kind::kBase:
        e.base[quantity.index] = value;
        break;
      case QuantityResolver::Kind::kFibre:
        e.fibre[quantity.index] = value;
        break;
      case QuantityResolver::Kind::kGroupSO3:
        ++so3_listed;
        so3_free += bc.free;
        so3_value[static_cast<Eigen::Index>(quantity.index)] = bc.value;
        so3_line = bc.where.line;
        break;
      case QuantityResolver::Kind::kGroupSE2:
        se2[quantity.index] = value;
        break;
    }
  }
  if (so3_listed > 0) {
    if (so3_listed != 3 || (so3_free != 0 && so3_free != 3))
      throw ScenarioError(s.source_file, so3_line, q.prefix,
                          "an SO3 element is fixed or free as a whole: give " + q.prefix +
                              ".x, .y and .z (all values, or all free)");
    e.so3 = so3_free ? std::nullopt : std::optional<Eigen::Vector3d>(so3_value);
  }
  if (q.se2) {
    if (se2[0].has_value() != se2[1].has_value())
      throw ScenarioError(s.source_file, 0, q.se2_names[0] + ", " + q.se2_names[1],
                          "the SE2 position is fixed or free as a pair");
    e.se2_translation =
        se2[0] ? std::optional<Eigen::Vector2d>(Eigen::Vector2d(*se2[0], *se2[1])) : std::nullopt;
    e.se2_angle = se2[2];
  }
  return e;
}

Eigen::Matrix3d SE2Element(double x, double y, double theta) {
  Eigen::Matrix3d g = Eigen::Matrix3d::Identity();
  g(0, 0) = std::cos(theta);
  g(0, 1) = -std::sin(theta);
  g(1, 0) = std::sin(theta);
  g(1, 1) = std::cos(theta);
  g(0, 2) = x;
  g(1, 2) = y;
  return g;
}

// Fills `end` from `spec` as residual rows; at t = 0, state components already fixed in x0 are
// left out (they are not unknowns).
void ToConditions(const EndSpec& spec, const ExplicitFlow& flow, bool initial,
                  BoundaryProblem& problem, EndConditions& end, const Scenario& s) {
  auto add_coordinate = [&](const std::string& name, double value) {
    const auto z = IndexOf(flow.coordinates, name);
    if (initial) {
      if (auto xi = IndexOf(flow.states, name)) {
        problem.x0[*xi] = value;
        problem.x0_unknown[*xi] = false;
        return;
      }
    }
    end.coordinates.emplace_back(*z, value);
  };
  bool config_free = false;
  for (std::size_t i = 0; i < flow.base.size(); ++i) {
    if (spec.base[i]) {
      add_coordinate(flow.base[i], *spec.base[i]);
      end.fixed_base.push_back(i);
    } else {
      config_free = true;
    }
  }
  for (std::size_t a = 0; a < flow.fibre.size(); ++a) {
    if (spec.fibre[a]) {
      add_coordinate(flow.fibre[a], *spec.fibre[a]);
      continue;
    }
    if (a >= flow.fibre_costates.size())
      throw ScenarioError(s.source_file, s.optimal_control.where.line, flow.fibre[a],
                          "a free velocity needs the costates of an optimal-control problem");
    end.zero_costates.push_back(*IndexOf(flow.coordinates, flow.fibre_costates[a]));
  }
  if (problem.has_group) {
    if (problem.group == MatrixGroup::kSO3) {
      if (spec.so3) {
        end.group_all = true;
        end.group_target = geometry::Exp(MatrixGroup::kSO3, *spec.so3);
      } else {
        config_free = true;
      }
    } else {
      end.se2_translation = spec.se2_translation.has_value();
      end.se2_angle = spec.se2_angle.has_value();
      if (spec.se2_translation) end.translation = *spec.se2_translation;
      if (spec.se2_angle) end.angle = *spec.se2_angle;
      config_free |= !end.se2_translation || !end.se2_angle;
    }
    if (initial) {
      // A fully fixed initial element is the start of the motion; otherwise its chart
      // coordinates are unknowns and the fixed parts become rows.
      const bool fixed =
          problem.group == MatrixGroup::kSO3 ? end.group_all : end.se2_translation && end.se2_angle;
      if (fixed) {
        problem.g0 = problem.group == MatrixGroup::kSO3
                         ? end.group_target
                         : SE2Element(end.translation.x(), end.translation.y(), end.angle);
        end.group_all = end.se2_translation = end.se2_angle = false;
      } else {
        problem.g0_unknown = true;
      }
    }
  }
  end.config_transversality = config_free;
}

}  // namespace

std::size_t EndConditions::num_rows() const {
  return coordinates.size() + (group_all ? 3 : 0) + (se2_translation ? 2 : 0) +
         (se2_angle ? 1 : 0) + zero_costates.size() + transversality_rows;
}

std::size_t BoundaryProblem::num_initial_unknowns() const {
  return static_cast<std::size_t>(std::count(x0_unknown.begin(), x0_unknown.end(), true)) +
         (g0_unknown ? 3 : 0);
}

BoundaryProblem ResolveBoundaryProblem(const Scenario& s, const ExplicitFlow& flow,
                                       std::vector<double> x0) {
  BoundaryProblem problem;
  const std::size_t d = flow.dimension();
  problem.horizon = s.simulation.t_end;
  problem.x0 = std::move(x0);
  problem.x0_unknown.assign(d, false);
  const ReconstructionSpec& rec = s.reconstruction;
  problem.has_group = !rec.group.empty();
  problem.group = rec.group == "SE2" ? MatrixGroup::kSE2 : MatrixGroup::kSO3;
  if (problem.has_group && rec.group == "SO3" && rec.initial.size() == 9)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) problem.g0(r, c) = rec.initial[3 * r + c];
  if (problem.has_group && rec.group == "SE2" && rec.initial.size() == 3)
    problem.g0 = SE2Element(rec.initial[0], rec.initial[1], rec.initial[2]);
  if (problem.has_group) problem.g0 = geometry::ProjectToGroup(problem.group, problem.g0);

  std::vector<double> parameters;
  for (const auto& p : s.parameters) parameters.push_back(p.value);

  if (!s.optimal_control.present) {
    const BoundaryValueSpec& bv = s.boundary_value;
    if (!bv.present())
      throw ScenarioError(s.source_file, 0, "optimal_control",
                          "the scenario poses no optimal_control or boundary_value problem");
    for (const std::string& name : bv.unknowns) {
      const auto i = IndexOf(flow.states, name);
      if (!i)
        throw ScenarioError(s.source_file, bv.where.line, name,
                            "an unknown must be a free coordinate of M_f");
      problem.x0_unknown[*i] = true;
    }
    for (const auto& [name, value] : bv.targets) {
      const auto z = IndexOf(flow.coordinates, name);
      if (!z)
        throw ScenarioError(s.source_file, bv.where.line, name,
                            "a target must be a coordinate of M (not a derived column)");
      problem.final.coordinates.emplace_back(*z, value);
    }
  } else {
    QuantityResolver q{s, flow};
    q.so3 = problem.has_group && problem.group == MatrixGroup::kSO3;
    q.se2 = problem.has_group && problem.group == MatrixGroup::kSE2;
    q.prefix = rec.names.empty() ? "R" : rec.names[0];
    if (q.se2) q.se2_names = rec.names;
    // Every state is an unknown of t = 0 unless an initial condition fixes it.
    for (std::size_t i = 0; i < d; ++i) problem.x0_unknown[i] = true;
    const EndSpec initial = ReadEnd(s.optimal_control.initial, q, true, problem.x0, problem.g0, s);
    const EndSpec final = ReadEnd(s.optimal_control.final, q, false, problem.x0, problem.g0, s);
    ToConditions(initial, flow, true, problem, problem.initial, s);
    ToConditions(final, flow, false, problem, problem.final, s);
    // Transversality on the configuration: N^T p = 0 for the section variations N that keep
    // the fixed configuration quantities fixed.
    const std::size_t k = flow.fibre.size();
    for (EndConditions* end : {&problem.initial, &problem.final}) {
      if (!end->config_transversality) continue;
      if (flow.section_costates.size() != k)
        throw ScenarioError(s.source_file, s.optimal_control.where.line, "optimal_control",
                            "a free configuration needs the costates of an optimal-control "
                            "problem");
      // At t = 0 a fixed group element is g0 itself: it still constrains the frame.
      end->group_fixed_at_start =
          end == &problem.initial && problem.has_group && !problem.g0_unknown;
      const Eigen::MatrixXd M = FixedFrame(*end, problem, flow, 0.0, problem.x0.data(), parameters);
      end->transversality_rows = static_cast<std::size_t>(FreeDirections(M, k).cols());
      if (end->transversality_rows + M.rows() != k)
        throw ScenarioError(s.source_file, s.optimal_control.where.line, "optimal_control",
                            "the fixed configuration quantities at one end are dependent");
    }
  }
  const std::size_t unknowns = problem.num_initial_unknowns();
  const std::size_t rows = problem.initial.num_rows() + problem.final.num_rows();
  if (unknowns != rows)
    throw ScenarioError(
        s.source_file,
        s.optimal_control.present ? s.optimal_control.where.line : s.boundary_value.where.line,
        s.optimal_control.present ? "optimal_control" : "boundary_value",
        std::to_string(rows) + " boundary and transversality conditions for " +
            std::to_string(unknowns) + " unknown initial values");
  return problem;
}

void EndRows(const EndConditions& end, const BoundaryProblem& problem, const ExplicitFlow& flow,
             double t, const double* x, const Eigen::Matrix3d& G, const Eigen::MatrixXd& S,
             const Eigen::MatrixXd& eta, const std::vector<double>& parameters,
             Eigen::VectorXd& rows, Eigen::MatrixXd& jac, std::size_t offset) {
  const std::size_t d = flow.dimension();
  const auto m = S.cols();
  // Without sensitivities (m = 0: F alone) the rows only; `jac` has no columns then.
  const bool derivatives = m > 0;
  const std::vector<double> z = Eval(flow.coordinate_values, t, x, d, parameters);
  const std::vector<double> dz =
      derivatives ? Eval(flow.coordinate_jacobian, t, x, d, parameters) : std::vector<double>{};
  const Eigen::Map<const RowMajor> Dz(dz.data(),
                                      derivatives ? static_cast<Eigen::Index>(z.size()) : 0,
                                      derivatives ? static_cast<Eigen::Index>(d) : 0);
  auto r = static_cast<Eigen::Index>(offset);
  auto coordinate_row = [&](std::size_t index, double target) {
    rows(r) = z[index] - target;
    if (derivatives) jac.row(r) = Dz.row(static_cast<Eigen::Index>(index)) * S;
    ++r;
  };
  for (const auto& [index, value] : end.coordinates) coordinate_row(index, value);
  if (end.group_all) {
    const Eigen::Vector3d res = geometry::Log(problem.group, G.inverse() * end.group_target);
    rows.segment<3>(r) = res;
    if (derivatives)
      jac.middleRows(r, 3) = -geometry::LeftJacobian(problem.group, res).inverse() * eta;
    r += 3;
  }
  if (end.se2_translation) {
    rows(r) = G(0, 2) - end.translation.x();
    rows(r + 1) = G(1, 2) - end.translation.y();
    if (derivatives) jac.middleRows(r, 2) = G.topLeftCorner<2, 2>() * eta.topRows(2);
    r += 2;
  }
  if (end.se2_angle) {
    rows(r) = geometry::WrapAngle(std::atan2(G(1, 0), G(0, 0)) - end.angle);
    if (derivatives) jac.row(r) = eta.row(2);
    ++r;
  }
  for (std::size_t index : end.zero_costates) coordinate_row(index, 0.0);
  if (end.transversality_rows > 0) {
    const Eigen::MatrixXd N =
        FreeDirections(FixedFrame(end, problem, flow, t, x, parameters), flow.fibre.size());
    const std::size_t k = flow.fibre.size();
    Eigen::VectorXd p(k);
    Eigen::MatrixXd dp(k, m);
    for (std::size_t a = 0; a < k; ++a) {
      const std::size_t index = *IndexOf(flow.coordinates, flow.section_costates[a]);
      p(a) = z[index];
      if (derivatives) dp.row(a) = Dz.row(static_cast<Eigen::Index>(index)) * S;
    }
    const auto count = static_cast<Eigen::Index>(end.transversality_rows);
    rows.segment(r, count) = N.leftCols(count).transpose() * p;
    if (derivatives) jac.middleRows(r, count) = N.leftCols(count).transpose() * dp;
    r += count;
  }
}

EndConditions Blend(const EndConditions& target, const EndConditions& from, double s,
                    MatrixGroup group) {
  EndConditions out = target;
  for (std::size_t i = 0; i < out.coordinates.size(); ++i)
    out.coordinates[i].second = from.coordinates[i].second +
                                s * (target.coordinates[i].second - from.coordinates[i].second);
  if (out.group_all)
    out.group_target = from.group_target *
                       geometry::Exp(group, s * geometry::Log(group, from.group_target.inverse() *
                                                                         target.group_target));
  out.translation = from.translation + s * (target.translation - from.translation);
  out.angle = from.angle + s * geometry::WrapAngle(target.angle - from.angle);
  return out;
}

EndConditions TargetsAt(const EndConditions& end, const ExplicitFlow& flow, double t,
                        const double* x, const Eigen::Matrix3d& G,
                        const std::vector<double>& parameters, MatrixGroup) {
  EndConditions out = end;
  const std::vector<double> z = Eval(flow.coordinate_values, t, x, flow.dimension(), parameters);
  for (auto& [index, value] : out.coordinates) value = z[index];
  out.group_target = G;
  out.translation = Eigen::Vector2d(G(0, 2), G(1, 2));
  out.angle = std::atan2(G(1, 0), G(0, 0));
  return out;
}

}  // namespace dirac::control
