#include <yaml-cpp/yaml.h>

#include <sstream>

#include "dirac/constrained_system.hpp"

namespace dirac {
namespace {

const char* OutcomeName(ChainOutcome outcome) {
  switch (outcome) {
    case ChainOutcome::kStabilized:
      return "stabilized";
    case ChainOutcome::kEmpty:
      return "empty";
    case ChainOutcome::kIsolatedPoints:
      return "isolated_points";
    case ChainOutcome::kNotStabilized:
      return "not_stabilized";
  }
  return "unknown";
}

}  // namespace

std::string FormatChain(const ConstraintChain& c) {
  std::ostringstream out;
  out << "Formulation: " << c.formulation << "\n";
  out << "Coordinates of M_0:";
  for (const auto& z : c.coordinates) out << " " << z;
  out << "\n\nConstraint chain M_0 ⊃ M_1 ⊃ … (Gotay–Nester–Hinds, seed L §3.2):\n";
  for (const auto& step : c.steps) {
    out << "  M_" << step.index << ": dim " << step.dimension;
    if (step.tangent_sections || step.orthogonal_dimension)
      out << ", rank rho^-1(TM_" << step.index << ") = " << step.tangent_sections
          << ", dim ⊥ = " << step.orthogonal_dimension;
    out << "\n";
    for (std::size_t k = 0; k < step.new_constraints.size(); ++k) {
      out << "      new constraint: " << step.new_constraints[k];
      if (k < step.solved_as.size()) out << "   (solved: " << step.solved_as[k] << ")";
      out << "\n";
    }
  }
  out << "\nVerdict: " << c.verdict << "\n";
  if (c.outcome != ChainOutcome::kStabilized) return out.str();
  out << "Final constraints (M_f in M_0):";
  if (c.final_constraints.empty()) out << " none";
  out << "\n";
  for (const auto& f : c.final_constraints) out << "  " << f << "\n";
  out << "Omega on E_f: rank " << c.final_rank << " — "
      << (c.symplectic ? "symplectic" : "presymplectic (degenerate)");
  if (!c.symplectic && c.symplectic_modulo_gauge)
    out << "; symplectic on the quotient by the gauge directions";
  out << "\n";
  out << "Gauge (ker Omega ∩ E_f): " << c.gauge.size() << " free function(s)";
  if (!c.gauge.empty())
    out << (c.configuration_dynamics_unique
                ? "; all fibre-only: the configuration motion is unique"
                : "; some move the configuration: genuine gauge freedom");
  out << "\n";
  for (const auto& g : c.gauge) {
    out << "  " << g.name << " along (";
    for (std::size_t i = 0; i < g.components.size(); ++i) out << (i ? ", " : "") << g.components[i];
    out << ")" << (g.fibre_only ? " [fibre only]" : " [moves configuration]")
        << ", integrated with " << g.name << " = " << g.value << "\n";
  }
  if (!c.validity_conditions.empty()) {
    out << "Valid where:";
    for (const auto& v : c.validity_conditions) out << "  " << v;
    out << "\n";
  }
  out << "Dynamics on M_f:\n";
  for (const auto& eq : c.dynamics) out << "  " << eq.label << " = " << eq.text << "\n";
  if (c.exact)
    out << "Numeric cross-check: " << c.check.points << " points sampled on M_f, ranks "
        << (c.check.ranks_agree ? "agree" : "DISAGREE")
        << " with the symbolic verdict, max |phi| = " << c.check.max_constraint_value << "\n";
  if (c.exact)
    for (const auto& m : c.check.messages) out << "  " << m << "\n";
  if (!c.decisions.empty()) {
    out << "How the verdicts were reached:\n";
    for (const auto& d : c.decisions) out << "  " << d << "\n";
  }
  return out.str();
}

std::string ChainToJson(const ConstraintChain& c) {
  YAML::Emitter out;
  out.SetStringFormat(YAML::DoubleQuoted);
  out.SetBoolFormat(YAML::TrueFalseBool);
  out.SetBoolFormat(YAML::LowerCase);
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  out.SetDoublePrecision(17);
  auto strings = [&](const std::vector<std::string>& list) {
    out << YAML::BeginSeq;
    for (const auto& s : list) out << s;
    out << YAML::EndSeq;
  };
  out << YAML::BeginMap;
  out << YAML::Key << "formulation" << YAML::Value << c.formulation;
  out << YAML::Key << "coordinates" << YAML::Value;
  strings(c.coordinates);
  out << YAML::Key << "steps" << YAML::Value << YAML::BeginSeq;
  for (const auto& step : c.steps) {
    out << YAML::BeginMap << YAML::Key << "index" << YAML::Value << step.index << YAML::Key
        << "dimension" << YAML::Value << step.dimension << YAML::Key << "tangent_sections"
        << YAML::Value << step.tangent_sections << YAML::Key << "orthogonal_dimension"
        << YAML::Value << step.orthogonal_dimension << YAML::Key << "new_constraints"
        << YAML::Value;
    strings(step.new_constraints);
    out << YAML::Key << "new_constraints_latex" << YAML::Value;
    strings(step.new_constraints_latex);
    out << YAML::Key << "solved_as" << YAML::Value;
    strings(step.solved_as);
    out << YAML::Key << "solved_for" << YAML::Value;
    strings(step.solved_for);
    out << YAML::Key << "residual_columns" << YAML::Value;
    strings(step.residual_columns);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "outcome" << YAML::Value << OutcomeName(c.outcome);
  out << YAML::Key << "verdict" << YAML::Value << c.verdict;
  out << YAML::Key << "final_dimension" << YAML::Value << c.final_dimension;
  out << YAML::Key << "final_rank" << YAML::Value << c.final_rank;
  out << YAML::Key << "symplectic" << YAML::Value << c.symplectic;
  out << YAML::Key << "configuration_dynamics_unique" << YAML::Value
      << c.configuration_dynamics_unique;
  out << YAML::Key << "symplectic_modulo_gauge" << YAML::Value << c.symplectic_modulo_gauge;
  out << YAML::Key << "final_constraints" << YAML::Value;
  strings(c.final_constraints);
  out << YAML::Key << "validity_conditions" << YAML::Value;
  strings(c.validity_conditions);
  out << YAML::Key << "gauge" << YAML::Value << YAML::BeginSeq;
  for (const auto& g : c.gauge) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << g.name << YAML::Key
        << "components" << YAML::Value;
    strings(g.components);
    out << YAML::Key << "fibre_only" << YAML::Value << g.fibre_only << YAML::Key << "value"
        << YAML::Value << g.value << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "dynamics" << YAML::Value << YAML::BeginSeq;
  for (const auto& eq : c.dynamics)
    out << YAML::BeginMap << YAML::Key << "lhs" << YAML::Value << eq.label << YAML::Key << "rhs"
        << YAML::Value << eq.text << YAML::EndMap;
  out << YAML::EndSeq;
  out << YAML::Key << "numeric_check" << YAML::Value << YAML::BeginMap << YAML::Key << "points"
      << YAML::Value << c.check.points << YAML::Key << "ranks_agree" << YAML::Value
      << c.check.ranks_agree << YAML::Key << "max_constraint_value" << YAML::Value
      << c.check.max_constraint_value << YAML::Key << "messages" << YAML::Value;
  strings(c.check.messages);
  out << YAML::EndMap;
  out << YAML::Key << "exact" << YAML::Value << c.exact;
  out << YAML::Key << "decisions" << YAML::Value;
  strings(c.decisions);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace dirac
