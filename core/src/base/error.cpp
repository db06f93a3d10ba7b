#include "dirac/error.hpp"

#include <string>

namespace dirac {
namespace {

std::string FormatScenarioMessage(const std::string& file, std::size_t line,
                                  const std::string& symbol, const std::string& message) {
  std::string out = file.empty() ? std::string("<scenario>") : file;
  if (line > 0) out += ":" + std::to_string(line);
  out += ": ";
  if (!symbol.empty()) out += "'" + symbol + "': ";
  out += message;
  return out;
}

}  // namespace

ScenarioError::ScenarioError(std::string file, std::size_t line, std::string symbol,
                             const std::string& message)
    : Error(FormatScenarioMessage(file, line, symbol, message)),
      file_(std::move(file)),
      line_(line),
      symbol_(std::move(symbol)) {}

}  // namespace dirac
