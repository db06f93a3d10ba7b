// Derived parameters: a `default` written as an expression of earlier parameters follows them.
#include <cmath>

#include "dirac/error.hpp"
#include "dirac/scenario.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {

namespace {

// The value of `text` with the first `count` parameters at their current values.
double Evaluate(const Scenario& s, std::size_t count, const std::string& text, std::size_t line,
                const std::string& key) {
  std::vector<std::string> names;
  for (std::size_t j = 0; j < count; ++j) names.push_back(s.parameters[j].name);
  std::vector<GiNaC::symbol> symbols;
  GiNaC::symtab table = scenario::TableOfNames(names, &symbols);
  table.erase("t");
  const GiNaC::ex e = symbolic::ParseExpression(text, table, {s.source_file, line, key});
  GiNaC::exmap values;
  for (std::size_t j = 0; j < count; ++j) values[symbols[j]] = s.parameters[j].value;
  double value = std::nan("");
  try {
    const GiNaC::ex n = GiNaC::evalf(e.subs(values));
    if (GiNaC::is_a<GiNaC::numeric>(n) && GiNaC::ex_to<GiNaC::numeric>(n).is_real())
      value = GiNaC::ex_to<GiNaC::numeric>(n).to_double();
  } catch (const std::exception&) {
  }
  if (!std::isfinite(value))
    throw ScenarioError(s.source_file, line, key,
                        "\"" + text + "\" is not a finite number at the current parameters");
  return value;
}

}  // namespace

void UpdateDerivedParameters(Scenario& s) {
  for (std::size_t k = 0; k < s.parameters.size(); ++k) {
    Parameter& p = s.parameters[k];
    if (p.default_expression.empty() || p.set_by_user) continue;
    p.value = Evaluate(s, k, p.default_expression, p.where.line, p.name + ".default");
  }
  for (auto& c : s.coordinates)
    if (!c.initial_velocity_expression.empty() && !c.initial_velocity_set)
      c.initial_velocity = Evaluate(s, s.parameters.size(), c.initial_velocity_expression,
                                    c.where.line, c.velocity + ".initial_velocity");
}

}  // namespace dirac
