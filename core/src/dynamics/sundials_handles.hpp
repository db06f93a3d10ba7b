#pragma once
// Internal: owning handles for every SUNDIALS object (context, vectors, matrices, linear and
// nonlinear solvers, IDAS/CVODES/KINSOL memory) and the exception bridge for SUNDIALS' C
// callbacks.
//
// Rules (core/src/dynamics/README.md, "Resources"):
//  - every SUNDIALS object is owned by one of these handles from the line that creates it, so an
//    exception anywhere (a failed Check, bad_alloc, an exception rethrown from a callback) frees
//    it;
//  - declare the Context first in a struct: members are destroyed in reverse order, so the
//    context outlives everything created in it;
//  - a C callback never lets an exception cross SUNDIALS' frames: it runs its body through
//    CallbackGuard::Run, which stores the exception and returns -1 (an unrecoverable failure:
//    SUNDIALS unwinds its own call and returns a negative flag); right after the SUNDIALS call
//    returns, the caller calls CallbackGuard::Rethrow, which rethrows the stored exception
//    unchanged (its type and message), before interpreting the flag.

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>
#include <sundials/sundials_nvector.h>

#include <cstddef>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "dirac/error.hpp"

namespace dirac::dynamics::sundials {

/// An error handler for CVODES / KINSOL that prints nothing: every flag is checked and turned
/// into a NumericalError by the caller.
inline void DiscardErrorMessage(int, const char*, const char*, char*, void*) {}

struct ContextFree {
  void operator()(SUNContext c) const { SUNContext_Free(&c); }
};
struct VectorFree {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct MatrixFree {
  void operator()(SUNMatrix m) const { SUNMatDestroy(m); }
};
struct LinearSolverFree {
  void operator()(SUNLinearSolver s) const { SUNLinSolFree(s); }
};
struct NonlinearSolverFree {
  void operator()(SUNNonlinearSolver s) const { SUNNonlinSolFree(s); }
};

using Context = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextFree>;
using Vector = std::unique_ptr<std::remove_pointer_t<N_Vector>, VectorFree>;
using Matrix = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixFree>;
using LinearSolver = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinearSolverFree>;
using NonlinearSolver =
    std::unique_ptr<std::remove_pointer_t<SUNNonlinearSolver>, NonlinearSolverFree>;

/// A new SUNDIALS context. Throws NumericalError if SUNDIALS cannot create one.
inline Context MakeContext() {
  SUNContext c = nullptr;
  if (SUNContext_Create(nullptr, &c) != 0 || !c) throw NumericalError("SUNContext_Create failed");
  return Context(c);
}

/// A serial vector of `size` entries. Throws NumericalError if the allocation fails.
inline Vector MakeSerialVector(std::size_t size, SUNContext context) {
  N_Vector v = N_VNew_Serial(static_cast<sunindextype>(size), context);
  if (!v) throw NumericalError("N_VNew_Serial failed");
  return Vector(v);
}

/// Solver memory (IDACreate, CVodeCreate, KINCreate) with its free function (IDAFree, ...).
class SolverMemory {
 public:
  using FreeFunction = void (*)(void**);
  SolverMemory() = default;
  /// Takes `memory` (may be null: then `what` is thrown as NumericalError).
  SolverMemory(void* memory, FreeFunction free, const char* what) : memory_(memory), free_(free) {
    if (!memory_) throw NumericalError(std::string(what) + " failed");
  }
  ~SolverMemory() { reset(); }
  SolverMemory(const SolverMemory&) = delete;
  SolverMemory& operator=(const SolverMemory&) = delete;
  SolverMemory(SolverMemory&& other) noexcept
      : memory_(std::exchange(other.memory_, nullptr)), free_(other.free_) {}
  SolverMemory& operator=(SolverMemory&& other) noexcept {
    if (this != &other) {
      reset();
      memory_ = std::exchange(other.memory_, nullptr);
      free_ = other.free_;
    }
    return *this;
  }
  void* get() const { return memory_; }
  explicit operator bool() const { return memory_ != nullptr; }
  void reset() {
    if (memory_ && free_) free_(&memory_);
    memory_ = nullptr;
  }

 private:
  void* memory_ = nullptr;
  FreeFunction free_ = nullptr;
};

/// Carries an exception from a C callback across SUNDIALS to the code that called SUNDIALS.
class CallbackGuard {
 public:
  /// Runs `body` (returning the callback's int status). On an exception: stores the first one
  /// and returns -1 (unrecoverable), so SUNDIALS stops and returns a negative flag. Once an
  /// exception is stored, later callbacks in the same SUNDIALS call return -1 without running.
  template <class Body>
  int Run(Body&& body) noexcept {
    if (pending_) return -1;
    try {
      return std::forward<Body>(body)();
    } catch (...) {
      pending_ = std::current_exception();
      return -1;
    }
  }
  /// Rethrows (and clears) the stored exception, if any. Call right after each SUNDIALS call
  /// that may run callbacks, before looking at its flag.
  void Rethrow() {
    if (pending_) std::rethrow_exception(std::exchange(pending_, nullptr));
  }
  bool pending() const { return pending_ != nullptr; }

 private:
  std::exception_ptr pending_;
};

}  // namespace dirac::dynamics::sundials
