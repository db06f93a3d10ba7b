#pragma once
/// @file symbolic_lock.hpp
/// One process-wide lock for everything that may create or destroy symbolic (GiNaC) expressions.
///
/// GiNaC's reference counts are plain integers, and GiNaC shares objects (small numbers, common
/// subexpressions) between otherwise unrelated expressions, so two threads touching symbolic
/// expressions at the same time corrupt memory. The engine's compiled tapes never touch GiNaC
/// (Model::Simulate is safe anywhere), but dirac::BuildModel, destroying a derived model and
/// some queries (ConstrainedSystem::ConstraintCovectors, Model::Equations) do. In dirac_ui the
/// worker thread derives and destroys models while holding this lock, and the GUI thread only
/// ever try-locks it (it never waits for a derivation).

#include <mutex>

namespace dirac::ui {

/// The lock described above.
std::mutex& SymbolicMutex();

}  // namespace dirac::ui
