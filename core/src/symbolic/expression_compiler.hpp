#pragma once
// Internal: compiles GiNaC expressions into a CompiledFunction (CSE via hash-consing).

#include <ginac/ginac.h>

#include <vector>

#include "dirac/compiled_function.hpp"

namespace dirac::symbolic {

/// Compiles `outputs` as functions of `inputs` (input k is read from inputs[k]).
/// Equal subexpressions (across all outputs) are evaluated once.
/// Throws ModelError naming the construct if an expression contains a symbol not in `inputs`
/// or a function the tape cannot evaluate.
CompiledFunction CompileExpressions(const std::vector<GiNaC::ex>& outputs,
                                    const std::vector<GiNaC::symbol>& inputs);

}  // namespace dirac::symbolic
