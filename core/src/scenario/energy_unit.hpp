#pragma once
// Internal: the unit of a scenario's Lagrangian (and so of its energy column) found from the
// units the file gives its symbols, for the window's axis titles ("energy [J]").

#include <array>
#include <optional>
#include <string>

#include "dirac/scenario.hpp"

namespace dirac::scenario {

/// Exponents of the SI base units kg, m, s, A, K, mol, cd.
using Dimension = std::array<int, 7>;

/// The dimension of a unit text: SI base and named derived units without prefixes (kg, m, s,
/// A, K, mol, cd, N, J, W, Pa, Hz, C, V, F, H, T, Wb, Ohm or Ω, S; rad, sr and 1 are
/// dimensionless), factors separated by spaces, `*` or `·`, each with an optional integer
/// power `^n`, at most one `/` with everything after it in the denominator (optionally in
/// parentheses): "kg m^2", "1/s^2", "V/m", "kg m^2/s". nullopt for any other text.
std::optional<Dimension> ParseUnit(const std::string& text);

/// The unit text of a dimension: "J" for energy, "1" for none, else base units with powers,
/// those with negative powers after one `/` ("m^2/s^2", "kg m/s").
std::string FormatDimension(const Dimension& dimension);

/// The unit of `s.lagrangian` from the units of the symbols it uses (a coordinate's `unit`, its
/// velocity's unit/s, a fibre coordinate's and a parameter's `unit`, t in s): every term of a
/// sum the same, a function's argument dimensionless, a power's exponent a number. "" when a
/// symbol has no unit or one ParseUnit does not read, when terms disagree, for a Lagrangian
/// generated from bodies or an algebra, or when the text does not parse. Needs the symbolic
/// lock (it parses with GiNaC); never throws.
std::string InferEnergyUnit(const Scenario& s);

}  // namespace dirac::scenario
