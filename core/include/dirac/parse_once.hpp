#pragma once
/// @file parse_once.hpp
/// Parse once: one reading of a scenario's expressions for everything done with it. Layer:
/// symbolic.
///
/// While a ParseOnce is alive on a thread, each expression text that LoadScenario, ParseScenario,
/// BuildModel, the derivations and SimulationInput::FromScenario read is parsed once: a later
/// reading of the same text takes the expression already parsed (its symbols swapped for the
/// reader's when they differ), and the scenario's symbols and the bodies' kinematics are built
/// once and shared by every formulation. Results are the same as without it, bit for bit.
/// LoadScenario, ParseScenario and BuildModel open one each for their own work; a caller that
/// reads a file and derives it (the `dirac` CLI) holds one around both.

#include <memory>

namespace dirac {

namespace symbolic {
class ParseSession;
}

/// Holds the thread's parse session (joins one already open on this thread). It holds GiNaC
/// expressions: create and destroy it where GiNaC may run (under SymbolicGuard in a front end
/// with threads, dirac/symbolic_lock.hpp), on one thread. Does not throw except std::bad_alloc.
class ParseOnce {
 public:
  ParseOnce();
  ~ParseOnce();
  ParseOnce(const ParseOnce&) = delete;
  ParseOnce& operator=(const ParseOnce&) = delete;

 private:
  std::unique_ptr<symbolic::ParseSession> session_;
};

}  // namespace dirac
