// ConstrainedSystem: the numeric cross-check of the chain and the compilation of the dynamics on
// M_f (run tapes, the explicit flow with its Jacobians, initial points).
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "constraints/constrained_system_impl.hpp"
#include "dirac/error.hpp"
#include "dynamics/cvode_driver.hpp"
#include "dynamics/idas_driver.hpp"
#include "dynamics/local_tolerance.hpp"
#include "dynamics/sampled_run.hpp"
#include "geometry/reconstruction.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {

using constraints::NullSpace;
using constraints::ReduceRows;
using constraints::Simplify;

void ConstrainedSystem::Impl::CrossCheck() {
  std::mt19937 rng(20261201);
  std::uniform_real_distribution<double> u(-1.2, 1.2);
  const unsigned N = static_cast<unsigned>(data.z.size());
  const unsigned K = data.rho.cols();
  GiNaC::exmap parameter_values;
  auto evaluate = [&](const matrix& m, const GiNaC::exmap& point) {
    Eigen::MatrixXd out(m.rows(), m.cols());
    for (unsigned i = 0; i < m.rows(); ++i)
      for (unsigned j = 0; j < m.cols(); ++j) {
        const ex value = GiNaC::evalf(m(i, j).subs(point).subs(parameter_values));
        if (!GiNaC::is_a<GiNaC::numeric>(value) || !GiNaC::ex_to<GiNaC::numeric>(value).is_real())
          throw ModelError("not a real number at the sampled point: " + Print(value));
        out(i, j) = GiNaC::ex_to<GiNaC::numeric>(value).to_double();
      }
    return out;
  };
  auto null_space = [](const Eigen::MatrixXd& m, unsigned cols) -> Eigen::MatrixXd {
    if (m.rows() == 0) return Eigen::MatrixXd::Identity(cols, cols);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(m);
    lu.setThreshold(1e-9);
    // Eigen returns one zero column for a trivial kernel: report it as empty.
    if (lu.dimensionOfKernel() == 0) return Eigen::MatrixXd(cols, 0);
    return lu.kernel();
  };
  for (std::size_t k = 0; k < data.parameters.size(); ++k)
    parameter_values[data.parameters[k]] = GiNaC::numeric(50 + 37 * static_cast<long>(k), 100);
  std::vector<symbol> tape_inputs(data.z.begin(), data.z.end());
  std::vector<double> parameter_doubles;
  for (std::size_t k = 0; k < data.parameters.size(); ++k) {
    tape_inputs.push_back(data.parameters[k]);
    parameter_doubles.push_back(
        GiNaC::ex_to<GiNaC::numeric>(parameter_values[data.parameters[k]]).to_double());
  }
  std::vector<ex> eliminated_order, eliminated_values;
  std::vector<unsigned> eliminated_index;
  for (unsigned i = 0; i < N; ++i) {
    if (auto it = elimination.find(data.z[i]); it != elimination.end()) {
      eliminated_order.push_back(data.z[i]);
      eliminated_values.push_back(it->second);
      eliminated_index.push_back(i);
    }
  }
  // Expressions the tape cannot evaluate (other symbols, unsupported functions) fall back to
  // GiNaC's evalf.
  bool tapes = true;
  CompiledFunction eliminated_tape, phi_tape;
  try {
    eliminated_tape = symbolic::CompileExpressions(eliminated_values, tape_inputs);
    phi_tape = symbolic::CompileExpressions(found_constraints, tape_inputs);
  } catch (const ModelError&) {
    tapes = false;
  }
  const std::size_t points = 8;
  for (std::size_t p = 0; p < points; ++p) {
    // A point on M_k for every k: sample M_f's free coordinates and reconstruct.
    GiNaC::exmap point;
    // Exact rationals (multiples of 2^-20), so polynomial and rational entries evaluate exactly
    // and do not depend on the order in which GiNaC sums their terms.
    for (unsigned i : free_index) {
      point[data.z[i]] = GiNaC::numeric(std::lround(u(rng) * 1048576.0), 1048576);
    }
    // Eliminated coordinates and the constraints are evaluated by compiled tapes, whose
    // canonical operation order makes the reported max |phi| the same in every run.
    std::vector<double> z_values(N, 0.0);
    for (unsigned i : free_index) {
      z_values[i] = GiNaC::ex_to<GiNaC::numeric>(point[data.z[i]]).to_double();
    }
    z_values.insert(z_values.end(), parameter_doubles.begin(), parameter_doubles.end());
    if (tapes) {
      const std::vector<double> eliminated = eliminated_tape.Evaluate(z_values);
      for (std::size_t e = 0; e < eliminated_order.size(); ++e) {
        z_values[eliminated_index[e]] = eliminated[e];
        point[eliminated_order[e]] = GiNaC::numeric(eliminated[e]);
      }
    } else {
      for (const auto& [var, value] : InCoordinateOrder(elimination, data.z))
        point[var] = GiNaC::evalf(value.subs(point).subs(parameter_values));
    }
    try {
      const Eigen::MatrixXd omega_e_num = evaluate(omega_e, point);
      const Eigen::MatrixXd alpha_num = evaluate(alpha, point);
      for (std::size_t k = 0; k < records.size(); ++k) {
        const StepRecord& rec = records[k];
        Eigen::MatrixXd tangency(0, K);
        if (!rec.elimination.empty()) tangency = evaluate(rec.tangency, point);
        const Eigen::MatrixXd basis = null_space(tangency, K);
        const unsigned tangent_rank = static_cast<unsigned>(basis.cols());
        const Eigen::MatrixXd f = basis.transpose() * omega_e_num;
        const Eigen::MatrixXd perp =
            basis.cols() == 0 ? Eigen::MatrixXd::Identity(K, K) : null_space(f, K);
        std::ostringstream where;
        where << "at sample point " << p + 1;
        if (tangent_rank != rec.tangent_rank || perp.cols() != rec.orthogonal) {
          chain.check.ranks_agree = false;
          std::ostringstream msg;
          msg << "step " << k << ": rank change " << where.str() << ": dim E_k " << tangent_rank
              << " (symbolic " << rec.tangent_rank << "), dim E_k^perp " << perp.cols()
              << " (symbolic " << rec.orthogonal << ")";
          chain.check.messages.push_back(msg.str());
        }
        if (!rec.has_new) {
          const double w =
              perp.cols() == 0 ? 0.0 : (perp.transpose() * alpha_num).cwiseAbs().maxCoeff();
          if (w > 1e-8) {
            chain.check.ranks_agree = false;
            chain.check.messages.push_back("step " + std::to_string(k) +
                                           ": dH does not vanish on E_k^perp " + where.str());
          }
        }
      }
      if (tapes) {
        for (double value : phi_tape.Evaluate(z_values)) {
          chain.check.max_constraint_value =
              std::max(chain.check.max_constraint_value, std::abs(value));
        }
      } else {
        for (const ex& phi : found_constraints) {
          const ex value = GiNaC::evalf(phi.subs(point).subs(parameter_values));
          if (GiNaC::is_a<GiNaC::numeric>(value))
            chain.check.max_constraint_value =
                std::max(chain.check.max_constraint_value,
                         std::abs(GiNaC::ex_to<GiNaC::numeric>(value).to_double()));
        }
      }
      ++chain.check.points;
    } catch (const std::exception& e) {
      chain.check.messages.push_back("sample point " + std::to_string(p + 1) +
                                     " skipped: " + e.what());
    }
  }
  (void)N;
}

void ConstrainedSystem::Impl::Compile() {
  const auto inputs = CompileInputs();
  const auto y = FreeSymbols();
  std::vector<ex> f, jac;
  for (unsigned i : free_index) f.push_back(rates[i]);
  for (const auto& fi : f)
    for (const auto& yj : y) jac.push_back(fi.diff(yj));
  free_rates = symbolic::CompileExpressions(f, inputs);
  free_jacobian = symbolic::CompileExpressions(jac, inputs);
  // Output row after t: z (N), z' (N), multipliers, E, residual_hidden*, residual_dynamics parts.
  std::vector<ex> out;
  columns = {{"t", ColumnKind::kTime}};
  for (unsigned i = 0; i < data.z.size(); ++i) {
    out.push_back(data.z[i].subs(elimination));
    columns.push_back({data.z_names[i], data.z_role[i]});
  }
  for (unsigned i = 0; i < data.z.size(); ++i) {
    out.push_back(rates[i]);
    columns.push_back({data.z_names[i] + "_dot", ColumnKind::kRate});
  }
  for (unsigned r = 0; r < multipliers.size(); ++r) {
    out.push_back(multipliers[r]);
    columns.push_back({data.multiplier_names[r], ColumnKind::kMultiplier});
  }
  out.push_back(OnManifold(data.hamiltonian));
  columns.push_back({"E", ColumnKind::kEnergy});
  GiNaC::exmap full;
  for (unsigned i = 0; i < data.z.size(); ++i) full[data.z[i]] = data.z[i].subs(elimination);
  for (std::size_t k = 0; k < found_constraints.size(); ++k) {
    // phi_k as found, evaluated on the reconstructed point (not simplified with the
    // elimination first, so the value is a real check of the reconstruction).
    out.push_back(found_constraints[k].subs(full, GiNaC::subs_options::no_pattern));
    columns.push_back(
        {"residual_hidden" + std::to_string(k + 1), ColumnKind::kHiddenConstraintResidual});
  }
  for (const ex& e : dynamics_residual) out.push_back(e);
  outputs = symbolic::CompileExpressions(out, inputs);
  columns.push_back({"residual_dynamics", ColumnKind::kDynamicsResidual});
  std::vector<ex> extra;
  for (const auto& o : data.outputs) {
    extra.push_back(OnManifold(o.value));
    columns.push_back({o.name, o.kind});
  }
  if (!data.running_cost.is_zero()) {
    extra.push_back(OnManifold(data.running_cost));
    columns.push_back({"running_cost", ColumnKind::kDiagnostic});
  }
  extras = symbolic::CompileExpressions(extra, inputs);
  if (!reconstruction.group.empty()) {
    std::vector<ex> xi, momentum;
    for (const auto& text : reconstruction.body_velocity)
      xi.push_back(OnManifold(symbolic::ParseExpression(
          text, data.table, {"", reconstruction.where.line, "body_velocity"})));
    if (data.momentum.size() == 3)
      for (const ex& e : data.momentum) momentum.push_back(OnManifold(e));
    body_velocity = symbolic::CompileExpressions(xi, inputs);
    group_momentum = symbolic::CompileExpressions(momentum, inputs);
    body_velocity_exprs = xi;
    for (const auto& c : geometry::GroupReconstruction::Columns(reconstruction)) {
      const bool diagnostic = c == "orthogonality_error" || c.rfind("spatial_momentum", 0) == 0;
      columns.push_back({c, diagnostic ? ColumnKind::kDiagnostic : ColumnKind::kGroup});
    }
  }
  CompileFlow(f, body_velocity_exprs);
}

void ConstrainedSystem::Impl::CompileFlow(const std::vector<ex>& f, const std::vector<ex>& xi) {
  const auto inputs = CompileInputs();
  const auto x = FreeSymbols();
  auto jacobian = [](const std::vector<ex>& rows, const std::vector<symbol>& wrt) {
    std::vector<ex> out;
    for (const auto& r : rows)
      for (const auto& w : wrt) out.push_back(r.diff(w));
    return out;
  };
  for (const auto& symbol : x) flow.states.push_back(symbol.get_name());
  flow.coordinates = data.z_names;
  flow.coordinate_kinds = data.z_role;
  flow.num_parameters = data.parameters.size();
  flow.rates = free_rates;
  flow.rates_jacobian = free_jacobian;
  flow.parameter_jacobian = symbolic::CompileExpressions(jacobian(f, data.parameters), inputs);
  std::vector<ex> z;
  for (const auto& zi : data.z) z.push_back(zi.subs(elimination));
  flow.coordinate_values = symbolic::CompileExpressions(z, inputs);
  flow.coordinate_jacobian = symbolic::CompileExpressions(jacobian(z, x), inputs);
  flow.coordinate_parameter_jacobian =
      symbolic::CompileExpressions(jacobian(z, data.parameters), inputs);
  flow.running_cost = symbolic::CompileExpressions({OnManifold(data.running_cost)}, inputs);
  flow.body_velocity = symbolic::CompileExpressions(xi, inputs);
  flow.body_velocity_jacobian = symbolic::CompileExpressions(jacobian(xi, x), inputs);
  flow.reconstruction = reconstruction;
  flow.base = data.base_names;
  flow.fibre = data.fibre_names;
  flow.fibre_costates = data.fibre_costate_names;
  flow.section_costates = data.section_costate_names;
  if (data.frame_anchor.rows() > 0 || !data.fibre.empty()) {
    std::vector<ex> anchor, per_section;
    for (unsigned i = 0; i < data.frame_anchor.rows(); ++i)
      for (unsigned a = 0; a < data.frame_anchor.cols(); ++a)
        anchor.push_back(OnManifold(data.frame_anchor(i, a)));
    flow.anchor = symbolic::CompileExpressions(anchor, inputs);
    if (!reconstruction.group.empty()) {
      // The body velocity is linear in the fibre: d xi / d y^A is the group part of section A.
      for (const auto& text : reconstruction.body_velocity) {
        const ex e = symbolic::ParseExpression(text, data.table,
                                               {"", reconstruction.where.line, "body_velocity"});
        for (const auto& y : data.fibre) per_section.push_back(OnManifold(e.diff(y)));
      }
    }
    flow.fibre_body_velocity = symbolic::CompileExpressions(per_section, inputs);
  }
}

std::vector<double> ConstrainedSystem::Impl::InitialPoint(const SimulationInput& input) const {
  // The scenario's values of M's coordinates (q0, v0, p0 by kind, the others by name).
  std::vector<double> z0 = data.initial;
  for (std::size_t i = 0; i < z0.size(); ++i) {
    const char kind = data.z_kind[i];
    if (kind == 'n') {
      for (const auto& [name, value] : input.named)
        if (name == data.z_names[i]) z0[i] = value;
      continue;
    }
    const std::vector<double>& source = kind == 'q' ? input.q0 : kind == 'v' ? input.v0 : input.p0;
    if (data.z_coordinate[i] < source.size()) z0[i] = source[data.z_coordinate[i]];
  }
  return z0;
}

}  // namespace dirac
