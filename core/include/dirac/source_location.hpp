#pragma once
/// @file source_location.hpp
/// Where a value of a scenario came from in its file: every part of a scenario carries one, so
/// that an error found later (in a derivation, a --set, a solve) names the file's line. Part of
/// the scenario's data (dirac/scenario.hpp). Throws nothing. Layer: scenario.

#include <cstddef>

namespace dirac {

/// Where a value came from in the scenario file (1-based line; 0 if not from a file).
struct SourceLocation {
  std::size_t line = 0;
};

}  // namespace dirac
