#pragma once
/// @file compiled_function.hpp
/// A vector-valued function of doubles compiled from symbolic expressions into a flat
/// instruction tape with common-subexpression elimination. Evaluating it never touches GiNaC.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dirac {

/// One tape instruction: `slot[dst] = op(slot[a], slot[b])` or a constant/input load.
struct TapeInstruction {
  enum class Op : std::uint8_t {
    kConst,   ///< slot[dst] = constant
    kInput,   ///< slot[dst] = input[a]
    kAdd,     ///< slot[dst] = slot[a] + slot[b]
    kSub,     ///< slot[dst] = slot[a] - slot[b]
    kMul,     ///< slot[dst] = slot[a] * slot[b]
    kDiv,     ///< slot[dst] = slot[a] / slot[b]
    kNeg,     ///< slot[dst] = -slot[a]
    kSquare,  ///< slot[dst] = slot[a]^2
    kPowInt,  ///< slot[dst] = slot[a]^n (n = int exponent stored in `b`)
    kPow,     ///< slot[dst] = pow(slot[a], slot[b])
    kSqrt,
    kExp,
    kLog,
    kSin,
    kCos,
    kTan,
    kAsin,
    kAcos,
    kAtan,
    kAtan2,
    kSinh,
    kCosh,
    kTanh,
    kAbs,
  };
  Op op;
  std::int32_t dst;
  std::int32_t a;
  std::int32_t b;
  double constant;
};

/// f: R^num_inputs -> R^num_outputs evaluated from a tape. Immutable after construction, so one
/// instance may be shared between threads; each caller supplies its own scratch buffer.
class CompiledFunction {
 public:
  CompiledFunction() = default;
  CompiledFunction(std::size_t num_inputs, std::vector<TapeInstruction> tape,
                   std::vector<std::int32_t> output_slots, std::size_t num_slots);

  std::size_t num_inputs() const { return num_inputs_; }
  std::size_t num_outputs() const { return output_slots_.size(); }
  /// Size of the scratch buffer `Evaluate` needs (in doubles).
  std::size_t scratch_size() const { return num_slots_; }
  /// Number of tape instructions (a measure of cost after CSE).
  std::size_t instruction_count() const { return tape_.size(); }

  /// Evaluates all outputs. `inputs` has num_inputs() doubles, `outputs` num_outputs(),
  /// `scratch` scratch_size(). Does not allocate and does not throw.
  void Evaluate(const double* inputs, double* outputs, double* scratch) const;

  /// Convenience overload that allocates its own scratch (not for hot loops).
  std::vector<double> Evaluate(const std::vector<double>& inputs) const;

 private:
  std::size_t num_inputs_ = 0;
  std::vector<TapeInstruction> tape_;
  std::vector<std::int32_t> output_slots_;
  std::size_t num_slots_ = 0;
};

}  // namespace dirac
