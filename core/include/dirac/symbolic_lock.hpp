#pragma once
/// @file symbolic_lock.hpp
/// The one process-wide lock around the symbolic engine (GiNaC). Layer: symbolic.
///
/// What it protects. GiNaC's reference counts are plain integers, and GiNaC shares objects
/// (small numbers, common subexpressions) between otherwise unrelated expressions, so two threads
/// creating, copying or destroying symbolic expressions at the same time corrupt memory. These
/// calls use GiNaC: reading or parsing a scenario (dirac::LoadScenario and dirac::ParseScenario
/// check every expression by parsing it), dirac::BuildModel and every derivation,
/// Model::Equations, the first call of
/// Model::gauge_two_form(), dirac::SolveOptimalControl's derivation of the collocation
/// equations, and destroying a derived model (a model holds GiNaC expressions). These do not:
/// Model::Simulate, Model::ConstraintCovectors, GaugeTwoForm::Compute, runs, solves on a derived
/// model's explicit flow, dirac::RunSweep's runs (compiled tapes only) — they may run on any
/// thread without the lock.
///
/// When to take it. A front end that calls the engine from more than one thread takes a
/// SymbolicGuard around every call of the first kind (and around the last release of a model),
/// on whichever thread makes it: dirac_ui's worker derives and destroys models under it and
/// its GUI thread takes it to read a scenario file; the Python module takes it (with the GIL
/// released) to read a scenario, derive, print and destroy a model. A single-threaded program
/// (the `dirac` CLI) may take it or not. The lock is not recursive: do not take it twice on
/// one thread, and never wait for another lock that a thread holding it may wait for. Core
/// itself never takes it, so a caller holding it can call any function of core.

#include <mutex>

namespace dirac {

/// The process-wide symbolic mutex described above.
std::mutex& SymbolicMutex();

/// Holds SymbolicMutex() for its lifetime (movable, like std::unique_lock). Blocks in the
/// constructor until the lock is free; `SymbolicGuard(std::try_to_lock)` does not block (check
/// owns_lock()), and `SymbolicGuard(std::defer_lock)` takes it later with lock().
class SymbolicGuard {
 public:
  SymbolicGuard() : lock_(SymbolicMutex()) {}
  explicit SymbolicGuard(std::try_to_lock_t t) : lock_(SymbolicMutex(), t) {}
  explicit SymbolicGuard(std::defer_lock_t t) : lock_(SymbolicMutex(), t) {}

  /// Takes the lock (blocks). Throws std::system_error if this guard already holds it.
  void lock() { lock_.lock(); }
  /// Releases the lock early. Throws std::system_error if this guard does not hold it.
  void unlock() { lock_.unlock(); }
  /// Whether this guard holds the lock.
  bool owns_lock() const { return lock_.owns_lock(); }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace dirac
