#pragma once
/// @file compiled_function.hpp
/// A vector-valued function of doubles compiled from symbolic expressions into a flat
/// instruction tape with common-subexpression elimination. Evaluating it never touches GiNaC.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace dirac {

namespace symbolic {
class NativeTapes;
}

/// One tape instruction, `{op, dst, a, b, c, d, constant}`: `r = op(slot[a], slot[b], ...,
/// constant)`, stored to `slot[dst]` or, when `dst < 0`, to `outputs[-1 - dst]` (see OutputDst).
/// Slots [0, num_inputs) are the inputs themselves (read-only), so instructions read inputs like
/// any other value; slots [num_inputs, num_slots) live in the caller's scratch buffer.
///
/// The immediate and fused ops round exactly like the separate ops they replace (each product is
/// rounded before the sum, never a hardware FMA), so using them never changes a result.
struct TapeInstruction {
  enum class Op : std::uint8_t {
    kConst,   ///< r = constant
    kInput,   ///< r = input[a] (the same as reading slot a; the compiler never emits it)
    kAdd,     ///< r = slot[a] + slot[b]
    kSub,     ///< r = slot[a] - slot[b]
    kMul,     ///< r = slot[a] * slot[b]
    kDiv,     ///< r = slot[a] / slot[b]
    kNeg,     ///< r = -slot[a]
    kSquare,  ///< r = slot[a]^2
    kPowInt,  ///< r = slot[a]^n (n = int exponent stored in `b`)
    kPow,     ///< r = pow(slot[a], slot[b])
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
    kAddK,       ///< r = slot[a] + constant
    kMulK,       ///< r = slot[a] * constant
    kSubFromK,   ///< r = constant - slot[a]
    kDivFromK,   ///< r = constant / slot[a]
    kMulAdd,     ///< r = slot[a] * slot[b] + slot[c]
    kMulSub,     ///< r = slot[a] * slot[b] - slot[c]
    kNegMulAdd,  ///< r = slot[c] - slot[a] * slot[b]
    kMulKAdd,    ///< r = slot[a] * constant + slot[b]
    kMulKSub,    ///< r = slot[a] * constant - slot[b]
    kNegMul,     ///< r = -(slot[a] * slot[b])
    kMulMulAdd,  ///< r = slot[a] * slot[b] + slot[c] * slot[d]
    kMulMulSub,  ///< r = slot[a] * slot[b] - slot[c] * slot[d]
    kMul3,       ///< r = (slot[a] * slot[b]) * slot[c]
  };
  Op op;
  std::int32_t dst;  ///< slot written, or OutputDst(k) to write outputs[k]
  std::int32_t a = -1;
  std::int32_t b = -1;
  std::int32_t c = -1;
  std::int32_t d = -1;
  double constant = 0.0;

  /// How many of a, b, c, d are slots `op` reads (a first; kPowInt keeps its exponent in b).
  static constexpr int SlotOperands(Op op) {
    switch (op) {
      case Op::kConst:
      case Op::kInput:
        return 0;
      case Op::kAdd:
      case Op::kSub:
      case Op::kMul:
      case Op::kDiv:
      case Op::kPow:
      case Op::kAtan2:
      case Op::kMulKAdd:
      case Op::kMulKSub:
      case Op::kNegMul:
        return 2;
      case Op::kMulAdd:
      case Op::kMulSub:
      case Op::kNegMulAdd:
      case Op::kMul3:
        return 3;
      case Op::kMulMulAdd:
      case Op::kMulMulSub:
        return 4;
      default:
        return 1;
    }
  }

  /// The `dst` that makes an instruction write outputs[k] directly.
  static constexpr std::int32_t OutputDst(std::size_t k) {
    return -1 - static_cast<std::int32_t>(k);
  }
};

/// f: R^num_inputs -> R^num_outputs evaluated from a tape. Immutable after construction, so one
/// instance may be shared between threads; each caller supplies its own scratch buffer.
class CompiledFunction {
 public:
  /// `output_slots[k]` for an output the tape writes itself (through OutputDst(k)).
  static constexpr std::int32_t kWrittenByTape = -1;

  CompiledFunction() = default;
  /// A tape over `num_slots` (>= num_inputs) slots, the first num_inputs of which are the inputs.
  /// After the tape, outputs[k] = slot[output_slots[k]] unless output_slots[k] is kWrittenByTape.
  /// Throws Error if the tape addresses anything out of range or writes an input. Instructions
  /// whose result is never read are dropped, and an output copied from a kConst slot is stored as
  /// that constant without running the instruction.
  CompiledFunction(std::size_t num_inputs, std::vector<TapeInstruction> tape,
                   std::vector<std::int32_t> output_slots, std::size_t num_slots);

  std::size_t num_inputs() const { return num_inputs_; }
  std::size_t num_outputs() const { return num_outputs_; }
  /// Size of the scratch buffer `Evaluate` needs (in doubles).
  std::size_t scratch_size() const { return scratch_size_; }
  /// Number of instructions one evaluation executes (a measure of cost after CSE and fusion;
  /// outputs that are inputs or constants are stored without an instruction).
  std::size_t instruction_count() const { return code_.empty() ? 0 : code_.size() - 1; }

  /// Evaluates all outputs. `inputs` has num_inputs() doubles, `outputs` num_outputs(),
  /// `scratch` scratch_size(); the three must not overlap. Does not allocate and does not throw.
  void Evaluate(const double* inputs, double* outputs, double* scratch) const;

  /// Convenience overload that allocates its own scratch (not for hot loops).
  std::vector<double> Evaluate(const std::vector<double>& inputs) const;

  /// Forward-mode derivatives (automatic differentiation on the tape): with `directions`
  /// tangent directions of the inputs, `seeds[i * directions + p]` = component i of direction
  /// p, writes `tangents[k * directions + p]` = d output_k along direction p at `inputs`.
  /// Every op's exact derivative rule is applied to the values the tape computes, so the result
  /// is the Jacobian-vector product to rounding (not a finite difference). `work` holds
  /// tangent_work_size(directions) doubles. Does not allocate and does not throw; a derivative
  /// that does not exist at the point (sqrt at 0, |x| at 0) comes out as inf/NaN or one-sided.
  /// A subexpression of inputs whose seeds are all zero has an exactly zero tangent and is skipped
  /// (so an infinite partial there, sqrt of a parameter at 0, does not make the result NaN).
  void EvaluateTangents(const double* inputs, const double* seeds, std::size_t directions,
                        double* tangents, double* work) const;
  /// Doubles of `work` that EvaluateTangents needs for `directions` directions.
  std::size_t tangent_work_size(std::size_t directions) const {
    // (not named `slots`: Qt defines that word as a macro in every file that includes QObject)
    const std::size_t value_slots = num_inputs_ + scratch_size_;
    return value_slots * (1 + directions) + (value_slots + sizeof(double) - 1) / sizeof(double);
  }
  /// For each output, the inputs it depends on through the tape (structural, sorted): the
  /// sparsity pattern of the Jacobian.
  std::vector<std::vector<std::size_t>> InputDependencies() const;

  /// Compiles this tape alone to machine code (symbolic::NativeTapes with one function: generated
  /// C, the system C compiler — $DIRAC_CC, else the C compiler the build used —, -O2
  /// -ffp-contract=off -fno-builtin, no fast-math; cached on disk, see NativeTapes) and loads it,
  /// so that Evaluate runs machine code instead of the interpreter. Every operation is the
  /// interpreter's, in the same order with the same rounding, so results are bit-identical.
  /// Returns false and changes nothing if no compiler works, the cache is unusable, loading fails
  /// or the tape holds a non-finite constant: the interpreter stays in use. Takes tens of
  /// milliseconds when not cached; not thread-safe against concurrent Evaluate on this object
  /// (call it before sharing). Copies share the loaded code. Models compile all their tapes as
  /// one batch instead (`simulation.tape`).
  bool CompileToMachineCode();
  /// The tape as executed (after dead-code removal), for inspection: two functions with equal
  /// tapes, inputs and output slots give the same bits.
  const std::vector<TapeInstruction>& tape() const { return tape_; }
  /// True once CompileToMachineCode has succeeded.
  bool is_machine_code() const { return native_ != nullptr; }

 private:
  friend class symbolic::NativeTapes;
  // Appends this tape as the C function `void name(const double* in, double* out, double* s)`
  // to `units`: one unit, or for a long tape its parts (external functions name_partK, one unit
  // each) and then the function calling them (symbolic/native_source.cpp). False (possibly
  // after appending some units) if it is default-constructed or holds a non-finite constant.
  bool WriteNativeSource(std::vector<std::string>& units, const std::string& name) const;
  // A copy that evaluates through `code`, kept loaded by `library`.
  CompiledFunction WithNativeCode(void (*code)(const double*, double*, double*),
                                  std::shared_ptr<void> library) const;

  // Executable form of one instruction. `code` selects the interpreter block, which is
  // specialised for the op, where each operand comes from (scratch, inputs or the previous
  // result) and where the result goes (scratch, outputs or only the register); `handler` is that
  // block's address where the interpreter is threaded code. Slot fields index the array their
  // operand comes from; the constant shares storage with c and d.
  struct Step {
    const void* handler;
    std::uint32_t code;
    std::uint32_t dst;
    std::uint32_t a;
    std::uint32_t b;
    union {
      std::uint32_t cd[2];  ///< operands c and d
      double k;
    };
  };
  struct OutputCopy {
    std::uint32_t output;
    std::uint32_t from;  ///< index into the inputs or the scratch
  };
  struct ConstantOutput {
    std::uint32_t output;
    double value;
  };

  // The interpreter; with f == nullptr it only returns its table of block addresses (or nullptr
  // where it dispatches with a switch).
  static const void* const* Run(const CompiledFunction* f, const double* inputs, double* outputs,
                                double* scratch);

  std::size_t num_inputs_ = 0;
  std::size_t num_outputs_ = 0;
  std::size_t scratch_size_ = 0;
  std::vector<Step> code_;  ///< the tape plus a final halt step (empty if default-constructed)
  std::vector<ConstantOutput> constant_outputs_;  ///< outputs the tape never computes
  std::vector<OutputCopy> copies_from_scratch_;
  std::vector<OutputCopy> copies_from_inputs_;
  std::vector<TapeInstruction> tape_;  ///< the tape as executed, for CompileToMachineCode
  void (*native_)(const double*, double*, double*) = nullptr;
  std::shared_ptr<void> library_;  ///< keeps native_'s shared object loaded
};

}  // namespace dirac
