#pragma once
// Internal: lowers the expression compiler's SSA tape to the executable tape of a
// CompiledFunction (immediates, fused products, inputs read in place, register allocation).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "symbolic/compiled_function.hpp"

namespace dirac::symbolic {

/// Lowers `ssa` (instruction v defines value v; a kInput instruction reads input `a`) to a
/// CompiledFunction with `num_inputs` inputs whose output k is the SSA value `outputs[k]`:
/// constant operands become immediates, single-use products fuse into the sum that consumes
/// them, inputs are read in place (slots [0, num_inputs) are the inputs), an output computed by
/// an instruction nothing else reads is written straight to the outputs, and the remaining
/// values share as few scratch slots as liveness allows. Every rewrite computes bit-for-bit the
/// same value as the SSA tape.
CompiledFunction LowerSsaTape(std::vector<TapeInstruction> ssa, std::size_t num_inputs,
                              const std::vector<std::int32_t>& outputs);

}  // namespace dirac::symbolic
