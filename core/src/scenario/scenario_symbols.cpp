#include "scenario/scenario_symbols.hpp"

#include "dirac/error.hpp"
#include "scenario/multibody.hpp"
#include "scenario/multibody_reader.hpp"
#include "symbolic/differentiate.hpp"
#include "symbolic/expression_parser.hpp"
#include "symbolic/parse_session.hpp"

#include <yaml-cpp/yaml.h>

#include <memory>

namespace dirac::scenario {

namespace {

// What the generated definitions of a table depend on besides its symbols, which the parse
// session shares by name (symbolic/parse_session.hpp): one key per distinct scenario text.
std::string GeneratedKey(const Scenario& s, const std::vector<std::string>& velocity_names,
                         const std::vector<std::pair<std::string, GiNaC::ex>>& definitions,
                         bool rates) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "symbols" << YAML::Value << YAML::Flow << YAML::BeginSeq << rates;
  for (const auto& name : velocity_names) out << name;
  for (const auto& d : definitions) out << d.first;
  for (const auto& c : s.coordinates) out << c.name << c.velocity << c.momentum;
  for (const auto& p : s.parameters) out << p.name;
  for (const auto& y : s.algebroid.fibre) out << y.name;
  for (const auto& h : s.holonomic) out << h.name << h.equation << h.where.line;
  out << YAML::EndSeq;
  EmitDefinitions(out, s);
  EmitMultibody(out, s);
  out << YAML::EndMap;
  return std::string("generated definitions\n") + out.c_str();
}

}  // namespace

ScenarioSymbols::ScenarioSymbols(const Scenario& s, SymbolOptions options) : file_(s.source_file) {
  using symbolic::ParseSession;
  t_ = ParseSession::SharedSymbol("t", "t");
  table_["t"] = t_;
  for (const auto& c : s.coordinates) {
    q_names_.push_back(c.name);
    q_.push_back(ParseSession::SharedSymbol("q", c.name));
    table_[c.name] = q_.back();
  }
  auto add_velocity = [&](const std::string& role, const std::string& name, double initial) {
    v_names_.push_back(name);
    v_initial_.push_back(initial);
    v_.push_back(ParseSession::SharedSymbol(role, name));
    table_[name] = v_.back();
  };
  if (options.velocities == Velocities::kFibre && s.algebroid.present) {
    for (const auto& y : s.algebroid.fibre) add_velocity("y", y.name, y.initial);
  } else if (options.velocities != Velocities::kNone) {
    for (const auto& c : s.coordinates) add_velocity("v", c.velocity, c.initial_velocity);
  }
  if (options.momenta)
    for (const auto& c : s.coordinates) {
      p_.push_back(ParseSession::SharedSymbol("p", c.momentum));
      table_[c.momentum] = p_.back();
    }
  for (const auto& par : s.parameters) {
    parameter_names_.push_back(par.name);
    parameters_.push_back(ParseSession::SharedSymbol("k", par.name));
    table_[par.name] = parameters_.back();
  }
  parse_table_ = table_;
  for (const auto& d : s.definitions) {
    try {
      AddDefinition(d.name, Parse(d.value, d.where.line, d.name));
    } catch (const ScenarioError&) {
      // Names a symbol this table lacks (the reader checked it against the full table).
    }
  }
  const bool rates = options.velocities != Velocities::kNone && !s.algebroid.present;
  if (!s.multibody.present() && (!rates || s.holonomic.empty())) return;
  // Derived once per parse session: the same symbols give the same expressions.
  std::shared_ptr<void>* slot =
      ParseSession::Slot(GeneratedKey(s, v_names_, definition_values_, rates));
  if (slot && *slot) {
    for (const auto& [name, value] : *std::static_pointer_cast<std::vector<NamedExpression>>(*slot))
      AddDefinition(name, value);
    return;
  }
  const std::size_t before = definition_values_.size();
  if (s.multibody.present()) {
    // The bodies' numbers (offsets, directions, inertias, 0.6 or 1.5 in a file) as the
    // rationals they spell: a float would spread into every generated coefficient, and GiNaC
    // rounds floats in its address-dependent term order (same input, same bytes).
    const symbolic::ScopedExactDecimals exact_decimals;
    MultibodyModel model(
        s,
        [this](const std::string& text, std::size_t line, const std::string& key) {
          return Parse(text, line, key);
        },
        q_, rates ? v_ : std::vector<GiNaC::symbol>{}, t_);
    for (const auto& [name, value] : model.Generated()) AddDefinition(name, value);
  }
  // The rate of each holonomic constraint, sum_i df/dq^i v^i, named <name>_rate: its form joins
  // the velocity constraints by name (no printed text, however large f is).
  if (rates && !s.holonomic.empty()) {
    auto d_dq = symbolic::MakeDifferentiators(q_);
    for (const auto& h : s.holonomic) {
      try {
        const GiNaC::ex f = Parse(h.equation, h.where.line, h.name + ".equation");
        GiNaC::ex df = 0;
        for (std::size_t i = 0; i < q_.size(); ++i) df += d_dq[i](f) * v_[i];
        AddDefinition(h.name + "_rate", df);
      } catch (const ScenarioError&) {
      }
    }
  }
  if (slot)
    *slot = std::make_shared<std::vector<NamedExpression>>(definition_values_.begin() + before,
                                                           definition_values_.end());
}

void ScenarioSymbols::AddDefinition(const std::string& name, const GiNaC::ex& value) {
  const GiNaC::symbol stand_in = symbolic::ParseSession::SharedSymbol("d", name);
  parse_table_[name] = stand_in;
  definitions_[stand_in] = value;
  table_[name] = value;
  definition_values_.emplace_back(name, value);
}

GiNaC::symbol ScenarioSymbols::Declare(const std::string& name, const std::string& latex) {
  GiNaC::symbol symbol = latex.empty() ? GiNaC::symbol(name) : GiNaC::symbol(name, latex);
  table_[name] = symbol;
  parse_table_[name] = symbol;
  return symbol;
}

GiNaC::ex ScenarioSymbols::Parse(const std::string& text, std::size_t line,
                                 const std::string& key) const {
  const GiNaC::ex e = symbolic::ParseExpression(text, parse_table_, {file_, line, key});
  return definitions_.empty() ? e : e.subs(definitions_, GiNaC::subs_options::no_pattern);
}

GiNaC::symtab TableOfNames(const std::vector<std::string>& names,
                           std::vector<GiNaC::symbol>* symbols) {
  GiNaC::symtab table;
  for (const auto& name : names) {
    GiNaC::symbol symbol(name);
    table[name] = symbol;
    if (symbols) symbols->push_back(symbol);
  }
  if (!table.count("t")) table["t"] = GiNaC::symbol("t");
  return table;
}

symbolic::NominalValues NominalValuesOf(const Scenario& scenario) {
  symbolic::NominalValues values;
  for (const auto& c : scenario.coordinates) {
    values[c.name] = c.initial;
    values[c.velocity] = c.initial_velocity;
    if (!c.momentum.empty()) values[c.momentum] = c.initial_momentum;
  }
  for (const auto& y : scenario.algebroid.fibre) values[y.name] = y.initial;
  for (const auto& p : scenario.parameters) values[p.name] = p.value;
  return values;
}

}  // namespace dirac::scenario
