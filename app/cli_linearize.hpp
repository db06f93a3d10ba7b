#pragma once
// `dirac linearize`: the linearization about an equilibrium or steady motion, and its stability
// sweep (--vary), composed from core (dirac/linearization.hpp).

#include "cli_options.hpp"

namespace dirac::cli {

/// Runs `dirac linearize`; returns the exit status. Throws UsageError for a malformed --vary,
/// dirac::Error for what core refuses (nothing is written then).
int Linearize(const Options& options);

}  // namespace dirac::cli
