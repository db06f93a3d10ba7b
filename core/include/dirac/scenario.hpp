#pragma once
/// @file scenario.hpp
/// A scenario: its data (dirac/scenario_spec.hpp, with the parts dirac/simulation_settings.hpp,
/// dirac/view_spec.hpp, dirac/optimal_control_spec.hpp, dirac/multibody_spec.hpp and
/// dirac/source_location.hpp), reading and writing files (dirac/scenario_io.hpp) and --set
/// overrides (dirac/scenario_overrides.hpp); each of those says its units and what it throws.
/// Include this for all of them; a reader that needs one part includes that part only.
/// See docs/scenario-format.md for the file syntax. Layer: scenario.

#include "dirac/scenario_io.hpp"
#include "dirac/scenario_overrides.hpp"
#include "dirac/scenario_spec.hpp"
