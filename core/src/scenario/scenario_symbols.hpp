#pragma once
// Internal: the one builder of the GiNaC symbol table of a scenario (time, coordinates,
// velocities or fibre coordinates, momenta, parameters, definitions and what the bodies
// generate), shared by every derivation.
//
// A definition is parsed once per table and enters it as its expression: every later text that
// names it shares the subtree. Parse() reads the text with a stand-in symbol per definition and
// substitutes the expressions after, so the parser's size checks see the text as written, not
// the generated energies it names. A definition that needs symbols this table lacks (velocities
// in a position-level table) is left out: a text naming it there is an unknown symbol.
//
// Inside a parse session (symbolic/parse_session.hpp: BuildModel, LoadScenario, the CLI's
// command) every table takes its symbols from the session by name and role, so the tables of all
// the formulations of one solve share them, each text is parsed once, and what the bodies
// generate (with the holonomic rates) is built once per distinct scenario text and reused.

#include <ginac/ginac.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "dirac/scenario.hpp"
#include "symbolic/generic_rank.hpp"

namespace dirac::scenario {

/// Which velocity-like symbols a derivation works with.
enum class Velocities {
  kNone,
  kTangent,  ///< v^i of TQ (each coordinate's `velocity`)
  kFibre,    ///< y^A: the algebroid's fibre coordinates, or v^i on TQ
};

struct SymbolOptions {
  Velocities velocities = Velocities::kFibre;
  bool momenta = false;  ///< declare each coordinate's momentum p_i
};

/// The symbols of a scenario, one GiNaC symbol per name, in a table the parser reads.
class ScenarioSymbols {
 public:
  explicit ScenarioSymbols(const Scenario& scenario, SymbolOptions options = {});

  const GiNaC::symbol& t() const { return t_; }
  const std::vector<GiNaC::symbol>& q() const { return q_; }
  const std::vector<std::string>& coordinate_names() const { return q_names_; }
  /// The velocities chosen by SymbolOptions (empty for kNone).
  const std::vector<GiNaC::symbol>& velocities() const { return v_; }
  const std::vector<std::string>& velocity_names() const { return v_names_; }
  /// Initial values of velocities() from the scenario.
  const std::vector<double>& velocity_initial() const { return v_initial_; }
  const std::vector<GiNaC::symbol>& momenta() const { return p_; }
  const std::vector<GiNaC::symbol>& parameters() const { return parameters_; }
  const std::vector<std::string>& parameter_names() const { return parameter_names_; }

  /// Declares one more symbol (accelerations, costates, ...) in the table and returns it.
  GiNaC::symbol Declare(const std::string& name, const std::string& latex = "");
  /// Every name with its value: symbols, and definitions as their expressions.
  const GiNaC::symtab& table() const { return table_; }
  /// The table with a stand-in symbol per definition, and the stand-ins' expressions: parse
  /// with the first, then subs() the second (what Parse does).
  const GiNaC::symtab& parse_table() const { return parse_table_; }
  const GiNaC::exmap& definitions() const { return definitions_; }
  /// The definitions in this table, in order (user definitions, then generated), with values.
  const std::vector<std::pair<std::string, GiNaC::ex>>& definition_values() const {
    return definition_values_;
  }

  /// Parses a scenario expression with these symbols; errors name the scenario's file, `line`
  /// and `key`. Throws ScenarioError.
  GiNaC::ex Parse(const std::string& text, std::size_t line, const std::string& key) const;

 private:
  std::string file_;
  GiNaC::symbol t_{"t"};
  std::vector<GiNaC::symbol> q_, v_, p_, parameters_;
  std::vector<std::string> q_names_, v_names_, parameter_names_;
  std::vector<double> v_initial_;
  GiNaC::symtab table_, parse_table_;
  GiNaC::exmap definitions_;
  std::vector<std::pair<std::string, GiNaC::ex>> definition_values_;
  void AddDefinition(const std::string& name, const GiNaC::ex& value);
};

/// A table with a fresh symbol for each name (and "t" unless listed), e.g. to check expressions
/// against a set of declared names or to read expressions in trajectory columns. The symbols
/// are appended to `symbols` in the order of `names` when it is given.
GiNaC::symtab TableOfNames(const std::vector<std::string>& names,
                           std::vector<GiNaC::symbol>* symbols = nullptr);

/// The scenario's values by symbol name (coordinates, velocities, momenta, fibre coordinates,
/// parameters): where generic-rank decisions draw their points (symbolic/generic_rank.hpp).
symbolic::NominalValues NominalValuesOf(const Scenario& scenario);

}  // namespace dirac::scenario
