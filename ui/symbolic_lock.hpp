#pragma once
/// @file symbolic_lock.hpp
/// One process-wide lock for everything that may create or destroy symbolic (GiNaC) expressions.
///
/// GiNaC's reference counts are plain integers, and GiNaC shares objects (small numbers, common
/// subexpressions) between otherwise unrelated expressions, so two threads touching symbolic
/// expressions at the same time corrupt memory. The engine's compiled tapes never touch GiNaC:
/// Model::Simulate, Model::ConstraintCovectors and GaugeTwoForm::Compute are safe anywhere.
/// dirac::BuildModel, Model::Equations and destroying a derived model do. In dirac_ui the worker
/// thread derives and destroys models while holding this lock; the GUI thread takes it only
/// when a controller is destroyed (after its worker stopped), so it never waits for a
/// derivation while the window is up.

#include <mutex>

namespace dirac::ui {

/// The lock described above.
std::mutex& SymbolicMutex();

}  // namespace dirac::ui
