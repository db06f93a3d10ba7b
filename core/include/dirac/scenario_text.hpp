#pragma once
/// @file scenario_text.hpp
/// Saving a scenario as the text of its own file: comments, order and layout kept, only the
/// edited numbers replaced. dirac::SaveScenario (scenario_io.hpp) uses it when the scenario's
/// source_file is readable and every difference is a number written there; otherwise it
/// re-emits the whole file (SaveScenarioToString) under a comment naming the source. Both write
/// numbers as ShortestNumber.

#include <optional>
#include <string>

#include "dirac/scenario_spec.hpp"

namespace dirac {

/// `text` (a scenario file's YAML, `origin` its name for messages) with the numbers in which
/// `edited` differs from it replaced in place, located by yaml-cpp's node marks, written as
/// ShortestNumber; a value outside a parameter's range widens it. nullopt if `text` does not
/// parse, a difference is not such a number (a key absent from the text, a boundary value set
/// free, another formulation, ...), or the result would not read back as `edited`. Throws
/// nothing.
std::optional<std::string> PatchScenarioText(const Scenario& edited, const std::string& text,
                                             const std::string& origin);

/// The shortest decimal text that reads back as exactly `value` (std::to_chars): "0.8".
std::string ShortestNumber(double value);

}  // namespace dirac
