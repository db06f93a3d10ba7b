#pragma once
/// @file symbolic_lock.hpp
/// One process-wide lock for everything that may create or destroy symbolic (GiNaC) expressions.
///
/// GiNaC's reference counts are plain integers, and GiNaC shares objects (small numbers, common
/// subexpressions) between otherwise unrelated expressions, so two threads touching symbolic
/// expressions at the same time corrupt memory. The engine's compiled tapes never touch GiNaC:
/// Model::Simulate, Model::ConstraintCovectors and GaugeTwoForm::Compute are safe anywhere.
/// dirac::BuildModel, Model::Equations, destroying a derived model and reading a scenario
/// (dirac::LoadScenario checks every expression by parsing it) do. In dirac_ui the worker
/// thread derives and destroys models while holding this lock; the GUI thread takes it when it
/// reads a scenario file (it may wait for a derivation in progress) and when a controller is
/// destroyed (after its worker stopped). Without it, reading a scenario while the worker
/// derived corrupted the heap (seen as an abort at exit in 2 of 10 runs of dirac_gui_tests,
/// and as a heap-use-after-free under ASan when the window destroyed its model).

#include <mutex>

namespace dirac::ui {

/// The lock described above.
std::mutex& SymbolicMutex();

}  // namespace dirac::ui
