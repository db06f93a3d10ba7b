#include "symbolic/expression_parser.hpp"

#include <array>
#include <cctype>
#include <string_view>

#include "dirac/error.hpp"

namespace dirac::symbolic {
namespace {

constexpr std::array<std::string_view, 27> kReserved = {
    "sin",     "cos",  "tan",  "exp", "log",   "sqrt", "asin", "acos",   "atan",
    "sinh",    "cosh", "tanh", "abs", "atan2", "pow",  "Pi",   "I",      "Euler",
    "Catalan", "t",    "E",    "lst", "diff",  "sqr",  "zeta", "tgamma", "lgamma"};

}  // namespace

bool IsReservedName(const std::string& name) {
  for (auto r : kReserved)
    if (name == r) return true;
  return false;
}

bool IsValidIdentifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

GiNaC::ex ParseExpression(const std::string& text, const GiNaC::symtab& symbols,
                          const ExpressionOrigin& origin) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw ScenarioError(origin.file, origin.line, origin.key, "empty expression");
  GiNaC::parser reader(symbols, /*strict=*/false);
  GiNaC::ex result;
  try {
    result = reader(text);
  } catch (const GiNaC::parse_error& e) {
    throw ScenarioError(origin.file, origin.line, origin.key,
                        std::string("cannot parse \"") + text + "\": " + e.what());
  } catch (const std::exception& e) {
    throw ScenarioError(origin.file, origin.line, origin.key,
                        std::string("cannot parse \"") + text + "\": " + e.what());
  }
  // The non-strict parser adds unknown names to its table: any addition is an unknown symbol.
  for (const auto& [name, value] : reader.get_syms()) {
    if (symbols.find(name) == symbols.end())
      throw ScenarioError(origin.file, origin.line, name,
                          "unknown symbol in " + origin.key + " \"" + text +
                              "\" (not a coordinate, velocity, parameter or t)");
  }
  return result;
}

}  // namespace dirac::symbolic
