#pragma once
// Internal: the four family generators (one file each) and the text helpers they share. Each
// generator returns a whole scenario file; the range of n is checked by the caller
// (family_registry.cpp, GenerateFamilyScenario).

#include <string>
#include <string_view>
#include <vector>

namespace dirac::families {

std::string PendulumChain(int n);
std::string RigidBodySo(int n);
std::string PointVortices(int n);
std::string CarTrailers(int n);

/// The shortest decimal text that reads back as exactly `value` ("0.2", "1e-12", "-3").
std::string Number(double value);
/// `value` rounded to `decimals` decimal places, then as Number (tidy initial values).
std::string Rounded(double value, int decimals);
/// "name<index>", e.g. Indexed("th", 3) = "th3".
std::string Indexed(std::string_view name, int index);
/// The items joined by `separator`.
std::string Join(const std::vector<std::string>& items, std::string_view separator);
/// A sum of terms as a folded YAML block (`key: >-` then indented lines of at most about
/// 96 characters); terms after the first carry their own sign ("+ x", "- y").
std::string FoldedExpression(std::string_view key, const std::vector<std::string>& terms);
/// The file's first lines: a comment saying how the file was generated, then the name.
std::string Header(std::string_view family, int n, std::string_view name);
/// `simulation:` with rtol = atol = 1e-12 and `extra` keys (e.g. ", stabilization: 10").
std::string Simulation(double t_end, double output_step, std::string_view extra = "");
/// `view: plots:` with one chart per (title, series) pair.
std::string Plots(const std::vector<std::pair<std::string, std::vector<std::string>>>& charts);

}  // namespace dirac::families
