#pragma once
// Internal: compiles GiNaC expressions into a CompiledFunction (CSE via hash-consing).

#include <ginac/ginac.h>

#include <memory>
#include <vector>

#include "symbolic/compiled_function.hpp"

namespace dirac::symbolic {

/// The canonical forms computed by one compilation (hashes, factorisations), kept for the next
/// ones of the same derivation: they depend only on the expressions and the inputs, so sharing
/// them changes no tape, and expressions common to several tapes (the Hessian, dL/dv, the
/// constraint forms in the residual and in their own tapes) are put in canonical form once.
/// A compilation with other inputs starts the memo anew. Holds GiNaC expressions.
class CompileMemo {
 public:
  CompileMemo();
  ~CompileMemo();
  CompileMemo(const CompileMemo&) = delete;
  CompileMemo& operator=(const CompileMemo&) = delete;

 private:
  friend CompiledFunction CompileExpressions(const std::vector<GiNaC::ex>&,
                                             const std::vector<GiNaC::symbol>&, CompileMemo*);
  struct Tables;
  std::unique_ptr<Tables> tables_;
};

/// Compiles `outputs` as functions of `inputs` (input k is read from inputs[k]).
/// Equal subexpressions (across all outputs) are evaluated once. `memo`, when given, is read
/// and extended (see CompileMemo); the tape is the same with or without it.
/// Throws ModelError naming the construct if an expression contains a symbol not in `inputs`
/// or a function the tape cannot evaluate.
CompiledFunction CompileExpressions(const std::vector<GiNaC::ex>& outputs,
                                    const std::vector<GiNaC::symbol>& inputs,
                                    CompileMemo* memo = nullptr);

}  // namespace dirac::symbolic
