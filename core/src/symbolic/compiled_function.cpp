#include "dirac/compiled_function.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "dirac/error.hpp"

namespace dirac {

namespace {

using Op = TapeInstruction::Op;

// Binary exponentiation: exact for small exponents and much cheaper than std::pow.
inline double IntPow(double x, std::int32_t n) {
  bool invert = n < 0;
  // Widen before negating so INT32_MIN does not overflow.
  std::int64_t m = invert ? -static_cast<std::int64_t>(n) : n;
  double result = 1.0;
  while (m > 0) {
    if (m & 1) result *= x;
    x *= x;
    m >>= 1;
  }
  return invert ? 1.0 / result : result;
}

bool ReadsSlotA(Op op) { return op != Op::kConst && op != Op::kInput; }

bool ReadsSlotB(Op op) {
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kPow:
    case Op::kAtan2:
      return true;
    default:
      return false;
  }
}

bool IsKnownOp(Op op) {
  return static_cast<std::uint8_t>(op) <= static_cast<std::uint8_t>(Op::kAbs);
}

}  // namespace

CompiledFunction::CompiledFunction(std::size_t num_inputs, std::vector<TapeInstruction> tape,
                                   std::vector<std::int32_t> output_slots, std::size_t num_slots)
    : num_inputs_(num_inputs),
      tape_(std::move(tape)),
      output_slots_(std::move(output_slots)),
      num_slots_(num_slots) {
  // Evaluate() trusts the tape blindly, so reject malformed tapes here once.
  auto valid_slot = [this](std::int32_t s) {
    return s >= 0 && static_cast<std::size_t>(s) < num_slots_;
  };
  for (std::size_t i = 0; i < tape_.size(); ++i) {
    const TapeInstruction& in = tape_[i];
    const std::string where = "CompiledFunction: tape instruction " + std::to_string(i);
    if (!IsKnownOp(in.op)) throw Error(where + " has an unknown op");
    if (!valid_slot(in.dst)) throw Error(where + " writes slot out of range");
    if (in.op == Op::kInput && (in.a < 0 || static_cast<std::size_t>(in.a) >= num_inputs_)) {
      throw Error(where + " reads input out of range");
    }
    if (ReadsSlotA(in.op) && !valid_slot(in.a)) throw Error(where + " reads slot out of range");
    if (ReadsSlotB(in.op) && !valid_slot(in.b)) throw Error(where + " reads slot out of range");
  }
  for (std::int32_t s : output_slots_) {
    if (!valid_slot(s)) throw Error("CompiledFunction: output slot out of range");
  }
}

void CompiledFunction::Evaluate(const double* inputs, double* outputs, double* scratch) const {
  double* const s = scratch;
  for (const TapeInstruction& in : tape_) {
    double r;
    switch (in.op) {
      case Op::kConst:
        r = in.constant;
        break;
      case Op::kInput:
        r = inputs[in.a];
        break;
      case Op::kAdd:
        r = s[in.a] + s[in.b];
        break;
      case Op::kSub:
        r = s[in.a] - s[in.b];
        break;
      case Op::kMul:
        r = s[in.a] * s[in.b];
        break;
      case Op::kDiv:
        r = s[in.a] / s[in.b];
        break;
      case Op::kNeg:
        r = -s[in.a];
        break;
      case Op::kSquare:
        r = s[in.a] * s[in.a];
        break;
      case Op::kPowInt:
        r = IntPow(s[in.a], in.b);
        break;
      case Op::kPow:
        r = std::pow(s[in.a], s[in.b]);
        break;
      case Op::kSqrt:
        r = std::sqrt(s[in.a]);
        break;
      case Op::kExp:
        r = std::exp(s[in.a]);
        break;
      case Op::kLog:
        r = std::log(s[in.a]);
        break;
      case Op::kSin:
        r = std::sin(s[in.a]);
        break;
      case Op::kCos:
        r = std::cos(s[in.a]);
        break;
      case Op::kTan:
        r = std::tan(s[in.a]);
        break;
      case Op::kAsin:
        r = std::asin(s[in.a]);
        break;
      case Op::kAcos:
        r = std::acos(s[in.a]);
        break;
      case Op::kAtan:
        r = std::atan(s[in.a]);
        break;
      case Op::kAtan2:
        r = std::atan2(s[in.a], s[in.b]);
        break;
      case Op::kSinh:
        r = std::sinh(s[in.a]);
        break;
      case Op::kCosh:
        r = std::cosh(s[in.a]);
        break;
      case Op::kTanh:
        r = std::tanh(s[in.a]);
        break;
      case Op::kAbs:
        r = std::fabs(s[in.a]);
        break;
      default:
        r = 0.0;
        break;  // unreachable: the constructor rejects unknown ops
    }
    s[in.dst] = r;
  }
  for (std::size_t k = 0; k < output_slots_.size(); ++k) outputs[k] = s[output_slots_[k]];
}

std::vector<double> CompiledFunction::Evaluate(const std::vector<double>& inputs) const {
  if (inputs.size() != num_inputs_) {
    throw Error("CompiledFunction::Evaluate: expected " + std::to_string(num_inputs_) +
                " inputs, got " + std::to_string(inputs.size()));
  }
  std::vector<double> scratch(num_slots_);
  std::vector<double> outputs(output_slots_.size());
  Evaluate(inputs.data(), outputs.data(), scratch.data());
  return outputs;
}

}  // namespace dirac
