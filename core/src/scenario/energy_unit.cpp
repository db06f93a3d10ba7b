#include "scenario/energy_unit.hpp"

#include <ginac/ginac.h>

#include <cctype>
#include <cstdlib>
#include <exception>
#include <map>
#include <vector>

#include "scenario/scenario_symbols.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac::scenario {
namespace {

constexpr Dimension kNone{};
constexpr Dimension kEnergy{1, 2, -2, 0, 0, 0, 0};

Dimension Scaled(const Dimension& d, int k) {
  Dimension out{};
  for (std::size_t i = 0; i < d.size(); ++i) out[i] = d[i] * k;
  return out;
}

Dimension Sum(const Dimension& a, const Dimension& b) {
  Dimension out{};
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
  return out;
}

const std::map<std::string, Dimension>& Units() {
  //                                           kg  m   s   A  K mol cd
  static const std::map<std::string, Dimension> units{{"1", kNone},
                                                      {"rad", kNone},
                                                      {"sr", kNone},
                                                      {"kg", {1, 0, 0, 0, 0, 0, 0}},
                                                      {"m", {0, 1, 0, 0, 0, 0, 0}},
                                                      {"s", {0, 0, 1, 0, 0, 0, 0}},
                                                      {"A", {0, 0, 0, 1, 0, 0, 0}},
                                                      {"K", {0, 0, 0, 0, 1, 0, 0}},
                                                      {"mol", {0, 0, 0, 0, 0, 1, 0}},
                                                      {"cd", {0, 0, 0, 0, 0, 0, 1}},
                                                      {"Hz", {0, 0, -1, 0, 0, 0, 0}},
                                                      {"N", {1, 1, -2, 0, 0, 0, 0}},
                                                      {"J", kEnergy},
                                                      {"W", {1, 2, -3, 0, 0, 0, 0}},
                                                      {"Pa", {1, -1, -2, 0, 0, 0, 0}},
                                                      {"C", {0, 0, 1, 1, 0, 0, 0}},
                                                      {"V", {1, 2, -3, -1, 0, 0, 0}},
                                                      {"F", {-1, -2, 4, 2, 0, 0, 0}},
                                                      {"H", {1, 2, -2, -2, 0, 0, 0}},
                                                      {"T", {1, 0, -2, -1, 0, 0, 0}},
                                                      {"Wb", {1, 2, -2, -1, 0, 0, 0}},
                                                      {"Ohm", {1, 2, -3, -2, 0, 0, 0}},
                                                      {"\u03a9", {1, 2, -3, -2, 0, 0, 0}},
                                                      {"S", {-1, -2, 3, 2, 0, 0, 0}}};
  return units;
}

// A product of factors "name" or "name^n" separated by spaces, '*' or '·'.
std::optional<Dimension> ParseProduct(std::string text) {
  for (const std::string dot : {"\u00b7", "*"}) {
    for (auto at = text.find(dot); at != std::string::npos; at = text.find(dot))
      text.replace(at, dot.size(), " ");
  }
  Dimension out{};
  std::size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    std::size_t end = text.find(' ', i);
    if (end == std::string::npos) end = text.size();
    const std::string factor = text.substr(i, end - i);
    i = end;
    const auto caret = factor.find('^');
    const std::string name = factor.substr(0, caret);
    int power = 1;
    if (caret != std::string::npos) {
      const std::string digits = factor.substr(caret + 1);
      std::size_t used = 0;
      try {
        power = std::stoi(digits, &used);
      } catch (const std::exception&) {
        return std::nullopt;
      }
      if (used != digits.size() || power < -99 || power > 99) return std::nullopt;
    }
    const auto unit = Units().find(name);
    if (unit == Units().end()) return std::nullopt;
    out = Sum(out, Scaled(unit->second, power));
    any = true;
  }
  if (!any) return std::nullopt;
  return out;
}

using UnitsBySymbol = std::map<std::string, Dimension>;

// The dimension of `e`, nullopt where it is not determined.
std::optional<Dimension> DimensionOf(const GiNaC::ex& e, const UnitsBySymbol& symbols) {
  if (GiNaC::is_a<GiNaC::numeric>(e) || GiNaC::is_a<GiNaC::constant>(e)) return kNone;
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    const auto it = symbols.find(GiNaC::ex_to<GiNaC::symbol>(e).get_name());
    if (it == symbols.end()) return std::nullopt;
    return it->second;
  }
  if (GiNaC::is_a<GiNaC::add>(e)) {
    std::optional<Dimension> common;
    for (std::size_t k = 0; k < e.nops(); ++k) {
      const auto d = DimensionOf(e.op(k), symbols);
      if (!d || (common && *common != *d)) return std::nullopt;
      common = d;
    }
    return common;
  }
  if (GiNaC::is_a<GiNaC::mul>(e)) {
    Dimension out{};
    for (std::size_t k = 0; k < e.nops(); ++k) {
      const auto d = DimensionOf(e.op(k), symbols);
      if (!d) return std::nullopt;
      out = Sum(out, *d);
    }
    return out;
  }
  if (GiNaC::is_a<GiNaC::power>(e)) {
    const auto base = DimensionOf(e.op(0), symbols);
    if (!base) return std::nullopt;
    if (*base == kNone) {
      const auto exponent = DimensionOf(e.op(1), symbols);
      return exponent && *exponent == kNone ? std::optional(kNone) : std::nullopt;
    }
    if (!GiNaC::is_a<GiNaC::numeric>(e.op(1))) return std::nullopt;
    const GiNaC::numeric p = GiNaC::ex_to<GiNaC::numeric>(e.op(1));
    if (!p.is_rational()) return std::nullopt;
    Dimension out{};
    for (std::size_t i = 0; i < out.size(); ++i) {
      const GiNaC::numeric power = p * (*base)[i];
      if (!power.is_integer()) return std::nullopt;  // sqrt(m) and the like
      out[i] = power.to_int();
    }
    return out;
  }
  if (GiNaC::is_a<GiNaC::function>(e)) {
    std::vector<Dimension> args;
    for (std::size_t k = 0; k < e.nops(); ++k) {
      const auto d = DimensionOf(e.op(k), symbols);
      if (!d) return std::nullopt;
      args.push_back(*d);
    }
    const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
    if (name == "abs" && args.size() == 1) return args[0];
    if (name == "atan2" && args.size() == 2 && args[0] == args[1]) return kNone;
    for (const Dimension& d : args)
      if (d != kNone) return std::nullopt;
    return kNone;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Dimension> ParseUnit(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return ParseProduct(text);
  std::string denominator = text.substr(slash + 1);
  if (denominator.find('/') != std::string::npos) return std::nullopt;
  const auto first = denominator.find_first_not_of(' ');
  const auto last = denominator.find_last_not_of(' ');
  if (first == std::string::npos) return std::nullopt;
  denominator = denominator.substr(first, last - first + 1);
  if (denominator.front() == '(' && denominator.back() == ')')
    denominator = denominator.substr(1, denominator.size() - 2);
  if (denominator.find_first_of("()") != std::string::npos) return std::nullopt;
  const auto top = ParseProduct(text.substr(0, slash));
  const auto bottom = ParseProduct(denominator);
  if (!top || !bottom) return std::nullopt;
  return Sum(*top, Scaled(*bottom, -1));
}

std::string FormatDimension(const Dimension& dimension) {
  if (dimension == kEnergy) return "J";
  static const char* const names[] = {"kg", "m", "s", "A", "K", "mol", "cd"};
  std::string top, bottom;
  int bottom_factors = 0;
  for (std::size_t i = 0; i < dimension.size(); ++i) {
    const int p = dimension[i];
    if (p == 0) continue;
    std::string& side = p > 0 ? top : bottom;
    if (!side.empty()) side += ' ';
    side += names[i];
    if (std::abs(p) != 1) side += "^" + std::to_string(std::abs(p));
    if (p < 0) ++bottom_factors;
  }
  if (top.empty()) top = "1";
  if (bottom.empty()) return top;
  return top + "/" + (bottom_factors > 1 ? "(" + bottom + ")" : bottom);
}

std::string InferEnergyUnit(const Scenario& s) {
  if (s.lagrangian_generated || s.multibody.present() || s.lagrangian.empty()) return "";
  try {
    UnitsBySymbol units{{"t", Units().at("s")}};
    const Dimension per_second = Units().at("Hz");
    std::vector<std::string> names{"t"};
    for (const Coordinate& c : s.coordinates) {
      names.insert(names.end(), {c.name, c.velocity});
      if (const auto d = ParseUnit(c.unit)) {
        units[c.name] = *d;
        units[c.velocity] = Sum(*d, per_second);
      }
    }
    for (const FibreCoordinate& y : s.algebroid.fibre) {
      names.push_back(y.name);
      if (const auto d = ParseUnit(y.unit)) units[y.name] = *d;
    }
    for (const Parameter& p : s.parameters) {
      names.push_back(p.name);
      if (const auto d = ParseUnit(p.unit)) units[p.name] = *d;
    }
    for (const Definition& d : s.definitions) names.push_back(d.name);
    const GiNaC::ex lagrangian = symbolic::ParseExpression(
        s.lagrangian, TableOfNames(names), {s.source_file, s.lagrangian_where.line, "lagrangian"});
    const auto d = DimensionOf(lagrangian, units);
    return d ? FormatDimension(*d) : "";
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace dirac::scenario
