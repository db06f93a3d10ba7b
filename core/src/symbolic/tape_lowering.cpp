#include "symbolic/tape_lowering.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace dirac::symbolic {

namespace {

using Op = TapeInstruction::Op;

// One lowering of one SSA tape; see LowerSsaTape.
class Lowering {
 public:
  explicit Lowering(std::vector<TapeInstruction> ssa) : tape_(std::move(ssa)) {}

  // Folds and fuses in place, drops dead values, then allocates slots by liveness.
  CompiledFunction Run(std::size_t num_inputs, const std::vector<std::int32_t>& outputs) && {
    const std::size_t n = tape_.size();
    reads_.assign(n, 0);
    output_refs_.assign(n, 0);
    for (const TapeInstruction& in : tape_) {
      ForEachOperand(in, [this](std::int32_t v) { ++reads_[v]; });
    }
    for (std::int32_t v : outputs) ++output_refs_[v];
    for (TapeInstruction& in : tape_) {
      FoldConstantOperand(in);
      FuseProduct(in);
    }
    // Products of three factors, among the products no sum absorbed.
    for (std::size_t i = 0; i < n; ++i) {
      if (reads_[i] + output_refs_[i] > 0) FuseTripleProduct(tape_[i]);
    }

    // Dead code: constants now held as immediates and products fused into their consumer.
    std::vector<bool> live(n, false);
    for (std::int32_t v : outputs) live[v] = true;
    for (std::size_t i = n; i-- > 0;) {
      if (live[i]) ForEachOperand(tape_[i], [&live](std::int32_t v) { live[v] = true; });
    }

    constexpr std::int64_t kNeverRead = -1;
    std::vector<std::int64_t> last_use(n, kNeverRead);
    std::fill(reads_.begin(), reads_.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (!live[i]) continue;
      ForEachOperand(tape_[i], [&](std::int32_t v) {
        ++reads_[v];
        last_use[v] = static_cast<std::int64_t>(i);
      });
    }
    // An output that only its own instruction produces and nobody reads skips the scratch.
    // Inputs and constants stay copies: CompiledFunction stores those outputs without running an
    // instruction at all.
    std::vector<std::int32_t> direct_output(n, -1);
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      const std::int32_t v = outputs[k];
      const Op op = tape_[v].op;
      if (op != Op::kInput && op != Op::kConst && reads_[v] == 0 && output_refs_[v] == 1) {
        direct_output[v] = static_cast<std::int32_t>(k);
      } else {
        last_use[v] = static_cast<std::int64_t>(n);  // copied out after the tape
      }
    }

    std::vector<std::int32_t> phys(n, -1);
    std::vector<std::int32_t> free_slots;
    auto num_phys = static_cast<std::int32_t>(num_inputs);
    std::vector<TapeInstruction> code;
    for (std::size_t i = 0; i < n; ++i) {
      if (!live[i]) continue;
      TapeInstruction in = tape_[i];
      const auto now = static_cast<std::int64_t>(i);
      if (in.op == Op::kInput) {
        phys[i] = in.a;  // input k is slot k
        continue;
      }
      // Operands are released before dst is allocated: Evaluate reads operands before writing.
      std::int32_t released[4];
      int num_released = 0;
      ForEachOperand(in, [&](std::int32_t& operand) {
        const std::int32_t ssa = operand;
        operand = phys[ssa];
        if (last_use[ssa] != now || tape_[ssa].op == Op::kInput) return;  // inputs are read-only
        for (int r = 0; r < num_released; ++r) {
          if (released[r] == operand) return;  // x op x: release the slot once
        }
        released[num_released++] = operand;
        free_slots.push_back(operand);
      });
      if (direct_output[i] >= 0) {
        in.dst = TapeInstruction::OutputDst(static_cast<std::size_t>(direct_output[i]));
      } else {
        std::int32_t dst;
        if (free_slots.empty()) {
          dst = num_phys++;
        } else {
          dst = free_slots.back();
          free_slots.pop_back();
        }
        phys[i] = dst;
        in.dst = dst;
        if (last_use[i] == kNeverRead) free_slots.push_back(dst);
      }
      code.push_back(in);
    }
    std::vector<std::int32_t> output_slots(outputs.size());
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      const std::int32_t v = outputs[k];
      output_slots[k] = direct_output[v] == static_cast<std::int32_t>(k)
                            ? CompiledFunction::kWrittenByTape
                            : phys[v];
    }
    return CompiledFunction(num_inputs, std::move(code), std::move(output_slots),
                            static_cast<std::size_t>(num_phys));
  }

 private:
  // Calls f(operand&) for each slot operand of `in`.
  template <typename Instruction, typename F>
  static void ForEachOperand(Instruction& in, F&& f) {
    const int count = TapeInstruction::SlotOperands(in.op);
    if (count >= 1) f(in.a);
    if (count >= 2) f(in.b);
    if (count >= 3) f(in.c);
    if (count >= 4) f(in.d);
  }

  bool IsConst(std::int32_t v) const { return tape_[v].op == Op::kConst; }

  // Takes the constant value v out of the slots and into the consuming instruction.
  double TakeConstant(std::int32_t v) {
    --reads_[v];
    return tape_[v].constant;
  }

  // Each rewrite computes bit-for-bit the same value: + and * commute, a - k == a + (-k).
  void FoldConstantOperand(TapeInstruction& in) {
    switch (in.op) {
      case Op::kAdd:
      case Op::kMul:
        if (IsConst(in.a) && !IsConst(in.b)) std::swap(in.a, in.b);
        if (IsConst(in.b)) {
          in.constant = TakeConstant(in.b);
          in.op = in.op == Op::kAdd ? Op::kAddK : Op::kMulK;
          in.b = -1;
        }
        break;
      case Op::kSub:
        if (IsConst(in.b)) {
          in = Make(Op::kAddK, in.a, -1, -1, -TakeConstant(in.b));
        } else if (IsConst(in.a)) {
          in = Make(Op::kSubFromK, in.b, -1, -1, TakeConstant(in.a));
        }
        break;
      case Op::kDiv:
        if (IsConst(in.a)) in = Make(Op::kDivFromK, in.b, -1, -1, TakeConstant(in.a));
        break;
      default:
        break;
    }
  }

  // True if v is a product of kind `op` read only by the instruction being rewritten.
  bool IsFusable(std::int32_t v, Op op) const {
    return tape_[v].op == op && reads_[v] == 1 && output_refs_[v] == 0;
  }

  // Folds a single-use product into the sum, difference or negation that reads it. The fused ops
  // round the product before the sum, so results do not change; x * (-k) == -(x * k).
  void FuseProduct(TapeInstruction& in) {
    const auto take = [this](std::int32_t v) -> const TapeInstruction& {
      --reads_[v];
      return tape_[v];
    };
    const std::int32_t x = in.a;
    const std::int32_t y = in.b;
    switch (in.op) {
      case Op::kAdd:  // x + y
        if (IsFusable(x, Op::kMul) && IsFusable(y, Op::kMul)) {
          const TapeInstruction& p = take(x);
          const TapeInstruction& q = take(y);
          in = Make(Op::kMulMulAdd, p.a, p.b, q.a, 0.0, q.b);
        } else if (IsFusable(x, Op::kMul)) {
          const TapeInstruction& p = take(x);
          in = Make(Op::kMulAdd, p.a, p.b, y);
        } else if (IsFusable(y, Op::kMul)) {
          const TapeInstruction& p = take(y);
          in = Make(Op::kMulAdd, p.a, p.b, x);
        } else if (IsFusable(x, Op::kMulK)) {
          const TapeInstruction& p = take(x);
          in = Make(Op::kMulKAdd, p.a, y, -1, p.constant);
        } else if (IsFusable(y, Op::kMulK)) {
          const TapeInstruction& p = take(y);
          in = Make(Op::kMulKAdd, p.a, x, -1, p.constant);
        }
        break;
      case Op::kSub:  // x - y
        if (IsFusable(x, Op::kMul) && IsFusable(y, Op::kMul)) {
          const TapeInstruction& p = take(x);
          const TapeInstruction& q = take(y);
          in = Make(Op::kMulMulSub, p.a, p.b, q.a, 0.0, q.b);
        } else if (IsFusable(y, Op::kMul)) {
          const TapeInstruction& p = take(y);
          in = Make(Op::kNegMulAdd, p.a, p.b, x);
        } else if (IsFusable(y, Op::kMulK)) {
          const TapeInstruction& p = take(y);
          in = Make(Op::kMulKAdd, p.a, x, -1, -p.constant);
        } else if (IsFusable(x, Op::kMul)) {
          const TapeInstruction& p = take(x);
          in = Make(Op::kMulSub, p.a, p.b, y);
        } else if (IsFusable(x, Op::kMulK)) {
          const TapeInstruction& p = take(x);
          in = Make(Op::kMulKSub, p.a, y, -1, p.constant);
        }
        break;
      case Op::kNeg:  // -x
        if (IsFusable(x, Op::kMul)) {
          const TapeInstruction& p = take(x);
          in = Make(Op::kNegMul, p.a, p.b);
        } else if (IsFusable(x, Op::kMulK)) {
          const TapeInstruction& p = take(x);
          in = Make(Op::kMulK, p.a, -1, -1, -p.constant);
        }
        break;
      default:
        break;
    }
  }

  // (x * y) * z in one instruction, same rounding.
  void FuseTripleProduct(TapeInstruction& in) {
    if (in.op != Op::kMul) return;
    const std::int32_t x = in.a;
    const std::int32_t y = in.b;
    if (IsFusable(x, Op::kMul)) {
      --reads_[x];
      in = Make(Op::kMul3, tape_[x].a, tape_[x].b, y);
    } else if (IsFusable(y, Op::kMul)) {
      --reads_[y];
      in = Make(Op::kMul3, tape_[y].a, tape_[y].b, x);
    }
  }

  static TapeInstruction Make(Op op, std::int32_t a, std::int32_t b = -1, std::int32_t c = -1,
                              double constant = 0.0, std::int32_t d = -1) {
    return TapeInstruction{op, -1, a, b, c, d, constant};
  }

  std::vector<TapeInstruction> tape_;      // SSA: instruction v defines value v
  std::vector<std::int32_t> reads_;        // instructions reading each value
  std::vector<std::int32_t> output_refs_;  // outputs referring to each value
};

}  // namespace

CompiledFunction LowerSsaTape(std::vector<TapeInstruction> ssa, std::size_t num_inputs,
                              const std::vector<std::int32_t>& outputs) {
  return Lowering(std::move(ssa)).Run(num_inputs, outputs);
}

}  // namespace dirac::symbolic
