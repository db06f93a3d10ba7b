// The engine's side of the parser oracle (tests/oracle/parser_oracle.py): reads a corpus, parses
// every expression with symbolic::ParseExpression and prints its value at the given points.
//
// Input: a first line "symbols NAME..."; then one line per expression, "TEXT<TAB>POINTS", where
// POINTS is ';'-separated points, each the ','-separated exact values "p/q" of the symbols.
// Output: one line per expression: "ok RE IM RE IM ..." (17 significant digits; "nan nan" where
// GiNaC cannot evaluate the exact substitution), or "refused MESSAGE".
// Parsing runs at GiNaC's default precision, as in the engine; the values are computed with
// 30 digits from the exactly substituted points.
#include <ginac/ginac.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "dirac/error.hpp"
#include "symbolic/expression_parser.hpp"

namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

GiNaC::numeric Rational(const std::string& text) {
  const auto slash = text.find('/');
  return GiNaC::numeric(std::stol(text.substr(0, slash)), std::stol(text.substr(slash + 1)));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: parser_oracle_engine CORPUS\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line;
  if (!std::getline(in, line) || line.rfind("symbols ", 0) != 0) {
    std::cerr << "parser_oracle_engine: the corpus must start with 'symbols NAME...'\n";
    return 2;
  }
  std::vector<GiNaC::symbol> symbols;
  GiNaC::symtab table;
  for (const std::string& name : Split(line.substr(8), ' ')) {
    symbols.emplace_back(name);
    table[name] = symbols.back();
  }
  table["t"] = GiNaC::symbol("t");
  const long default_digits = GiNaC::Digits;
  std::size_t number = 1;
  while (std::getline(in, line)) {
    ++number;
    const auto tab = line.rfind('\t');
    if (tab == std::string::npos) {
      std::cerr << "parser_oracle_engine: line " << number << " has no points\n";
      return 2;
    }
    GiNaC::Digits = default_digits;
    GiNaC::ex e;
    try {
      e = dirac::symbolic::ParseExpression(line.substr(0, tab), table,
                                           {"corpus", number, "expression"});
    } catch (const dirac::ScenarioError& error) {
      std::string message = error.what();
      for (char& c : message)
        if (c == '\n' || c == '\t') c = ' ';
      std::cout << "refused " << message << '\n';
      continue;
    }
    GiNaC::Digits = 30;
    std::cout << "ok";
    for (const std::string& point : Split(line.substr(tab + 1), ';')) {
      const std::vector<std::string> values = Split(point, ',');
      GiNaC::exmap at;
      for (std::size_t k = 0; k < symbols.size(); ++k) at[symbols[k]] = Rational(values.at(k));
      double re = std::nan(""), im = std::nan("");
      try {
        const GiNaC::ex v = e.subs(at).evalf();
        if (GiNaC::is_a<GiNaC::numeric>(v)) {
          re = GiNaC::ex_to<GiNaC::numeric>(v).real().to_double();
          im = GiNaC::ex_to<GiNaC::numeric>(v).imag().to_double();
        }
      } catch (const std::exception&) {
        // a pole of the exact substitution: the oracle skips the point
      }
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, " %.17g %.17g", re, im);
      std::cout << buffer;
    }
    std::cout << '\n';
  }
  return 0;
}
