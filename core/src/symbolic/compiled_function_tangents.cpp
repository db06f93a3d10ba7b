// Forward-mode automatic differentiation on a CompiledFunction's tape (see
// CompiledFunction::EvaluateTangents): the Jacobians of large models come from here instead of
// symbolic differentiation, whose size grows faster than the tape's.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "symbolic/compiled_function.hpp"

namespace dirac {

void CompiledFunction::EvaluateTangents(const double* inputs, const double* seeds, std::size_t P,
                                        double* tangents, double* work) const {
  using Op = TapeInstruction::Op;
  const std::size_t num_slots = num_inputs_ + scratch_size_;
  double* val = work;              // slot values
  double* tan = work + num_slots;  // slot tangents, P per slot
  // Whether a slot's tangent may be nonzero: a slot computed only from inputs whose seeds are all
  // zero (parameters, when differentiating by the state) has a zero tangent, and its P-wide
  // tangent loop is skipped. Such an operand contributes an exact zero to the chain rule (where
  // the loop would have added its partial derivative times 0: the same sum, except that an
  // infinite partial, sqrt at 0 of a parameter, no longer makes the result NaN).
  auto* live = reinterpret_cast<unsigned char*>(tan + num_slots * P);
  std::copy(inputs, inputs + num_inputs_, val);
  std::copy(seeds, seeds + num_inputs_ * P, tan);
  for (std::size_t i = 0; i < num_inputs_; ++i)
    live[i] = std::any_of(seeds + i * P, seeds + (i + 1) * P, [](double s) { return s != 0.0; });
  std::fill(tangents, tangents + num_outputs_ * P, 0.0);
  for (const TapeInstruction& in : tape_) {
    const double A = in.a >= 0 && TapeInstruction::SlotOperands(in.op) >= 1 ? val[in.a] : 0.0;
    const double B = TapeInstruction::SlotOperands(in.op) >= 2 ? val[in.b] : 0.0;
    const double C = TapeInstruction::SlotOperands(in.op) >= 3 ? val[in.c] : 0.0;
    const double D = TapeInstruction::SlotOperands(in.op) >= 4 ? val[in.d] : 0.0;
    const double K = in.constant;
    const double* dA = TapeInstruction::SlotOperands(in.op) >= 1 ? tan + in.a * P : nullptr;
    const double* dB = TapeInstruction::SlotOperands(in.op) >= 2 ? tan + in.b * P : nullptr;
    const double* dC = TapeInstruction::SlotOperands(in.op) >= 3 ? tan + in.c * P : nullptr;
    const double* dD = TapeInstruction::SlotOperands(in.op) >= 4 ? tan + in.d * P : nullptr;
    double v = 0.0;
    // The result's tangent goes to a temporary first: dst may equal an operand slot.
    double ga = 0, gb = 0, gc = 0, gd = 0;  // partial derivatives by operand
    switch (in.op) {
      case Op::kConst:
        v = K;
        break;
      case Op::kInput:
        v = inputs[in.a];
        ga = 1;
        break;
      case Op::kAdd:
        v = A + B;
        ga = 1;
        gb = 1;
        break;
      case Op::kSub:
        v = A - B;
        ga = 1;
        gb = -1;
        break;
      case Op::kMul:
        v = A * B;
        ga = B;
        gb = A;
        break;
      case Op::kDiv:
        v = A / B;
        ga = 1 / B;
        gb = -v / B;
        break;
      case Op::kNeg:
        v = -A;
        ga = -1;
        break;
      case Op::kSquare:
        v = A * A;
        ga = 2 * A;
        break;
      case Op::kPowInt: {
        const int n = in.b;
        v = std::pow(A, n);
        ga = n == 0 ? 0.0 : n * std::pow(A, n - 1);
        break;
      }
      case Op::kPow:
        v = std::pow(A, B);
        ga = B * std::pow(A, B - 1);
        gb = v == 0.0 ? 0.0 : v * std::log(A);
        break;
      case Op::kSqrt:
        v = std::sqrt(A);
        ga = 0.5 / v;
        break;
      case Op::kExp:
        v = std::exp(A);
        ga = v;
        break;
      case Op::kLog:
        v = std::log(A);
        ga = 1 / A;
        break;
      case Op::kSin:
        v = std::sin(A);
        ga = std::cos(A);
        break;
      case Op::kCos:
        v = std::cos(A);
        ga = -std::sin(A);
        break;
      case Op::kTan:
        v = std::tan(A);
        ga = 1 + v * v;
        break;
      case Op::kAsin:
        v = std::asin(A);
        ga = 1 / std::sqrt(1 - A * A);
        break;
      case Op::kAcos:
        v = std::acos(A);
        ga = -1 / std::sqrt(1 - A * A);
        break;
      case Op::kAtan:
        v = std::atan(A);
        ga = 1 / (1 + A * A);
        break;
      case Op::kAtan2: {
        v = std::atan2(A, B);
        const double r2 = A * A + B * B;
        ga = B / r2;
        gb = -A / r2;
        break;
      }
      case Op::kSinh:
        v = std::sinh(A);
        ga = std::cosh(A);
        break;
      case Op::kCosh:
        v = std::cosh(A);
        ga = std::sinh(A);
        break;
      case Op::kTanh:
        v = std::tanh(A);
        ga = 1 - v * v;
        break;
      case Op::kAbs:
        v = std::abs(A);
        ga = A < 0 ? -1.0 : 1.0;
        break;
      case Op::kAddK:
        v = A + K;
        ga = 1;
        break;
      case Op::kMulK:
        v = A * K;
        ga = K;
        break;
      case Op::kSubFromK:
        v = K - A;
        ga = -1;
        break;
      case Op::kDivFromK:
        v = K / A;
        ga = -v / A;
        break;
      case Op::kMulAdd:
        v = A * B + C;
        ga = B;
        gb = A;
        gc = 1;
        break;
      case Op::kMulSub:
        v = A * B - C;
        ga = B;
        gb = A;
        gc = -1;
        break;
      case Op::kNegMulAdd:
        v = C - A * B;
        ga = -B;
        gb = -A;
        gc = 1;
        break;
      case Op::kMulKAdd:
        v = A * K + B;
        ga = K;
        gb = 1;
        break;
      case Op::kMulKSub:
        v = A * K - B;
        ga = K;
        gb = -1;
        break;
      case Op::kNegMul:
        v = -(A * B);
        ga = -B;
        gb = -A;
        break;
      case Op::kMulMulAdd:
        v = A * B + C * D;
        ga = B;
        gb = A;
        gc = D;
        gd = C;
        break;
      case Op::kMulMulSub:
        v = A * B - C * D;
        ga = B;
        gb = A;
        gc = -D;
        gd = -C;
        break;
      case Op::kMul3:
        v = (A * B) * C;
        ga = B * C;
        gb = A * C;
        gc = A * B;
        break;
    }
    // kInput reads the seed of its input; every other op its operands' tangents. Operands with
    // a zero tangent drop out (nullptr).
    if (in.op == Op::kInput)
      dA = live[in.a] ? seeds + in.a * P : nullptr;
    else if (dA && !live[in.a])
      dA = nullptr;
    if (dB && !live[in.b]) dB = nullptr;
    if (dC && !live[in.c]) dC = nullptr;
    if (dD && !live[in.d]) dD = nullptr;
    // Keep the tape's order of the nonzero terms: the sum rounds as before.
    const double* terms[4];
    double partial[4];
    int count = 0;
    if (dA) terms[count] = dA, partial[count++] = ga;
    if (dB) terms[count] = dB, partial[count++] = gb;
    if (dC) terms[count] = dC, partial[count++] = gc;
    if (dD) terms[count] = dD, partial[count++] = gd;
    double* out = in.dst >= 0 ? tan + in.dst * P : tangents + (-1 - in.dst) * P;
    if (in.dst >= 0) live[in.dst] = count > 0;
    switch (count) {
      case 0:  // outputs start at zero; a dead slot's tangent is never read
        break;
      case 1:
        for (std::size_t p = 0; p < P; ++p) out[p] = partial[0] * terms[0][p];
        break;
      case 2:
        for (std::size_t p = 0; p < P; ++p)
          out[p] = partial[0] * terms[0][p] + partial[1] * terms[1][p];
        break;
      default:
        for (std::size_t p = 0; p < P; ++p) {
          double d = partial[0] * terms[0][p];
          for (int t = 1; t < count; ++t) d += partial[t] * terms[t][p];
          out[p] = d;
        }
        break;
    }
    if (in.dst >= 0) val[in.dst] = v;
  }
  for (const OutputCopy& copy : copies_from_inputs_)
    std::copy(seeds + copy.from * P, seeds + (copy.from + 1) * P, tangents + copy.output * P);
  for (const OutputCopy& copy : copies_from_scratch_) {
    if (!live[copy.from + num_inputs_]) continue;  // zero, as written above
    const double* from = tan + (copy.from + num_inputs_) * P;
    std::copy(from, from + P, tangents + copy.output * P);
  }
  // Constant outputs keep their zero tangents.
}

std::vector<std::vector<std::size_t>> CompiledFunction::InputDependencies() const {
  const std::size_t num_slots = num_inputs_ + scratch_size_;
  std::vector<std::vector<std::size_t>> slot(num_slots), output(num_outputs_);
  for (std::size_t i = 0; i < num_inputs_; ++i) slot[i] = {i};
  const auto merge = [](std::vector<std::size_t> a, const std::vector<std::size_t>& b) {
    std::vector<std::size_t> out;
    out.reserve(a.size() + b.size());
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
  };
  for (const TapeInstruction& in : tape_) {
    std::vector<std::size_t> deps;
    if (in.op == TapeInstruction::Op::kInput) deps = {static_cast<std::size_t>(in.a)};
    const std::int32_t operand[4] = {in.a, in.b, in.c, in.d};
    for (int p = 0; p < TapeInstruction::SlotOperands(in.op); ++p)
      deps = merge(std::move(deps), slot[operand[p]]);
    if (in.dst >= 0)
      slot[in.dst] = std::move(deps);
    else
      output[-1 - in.dst] = std::move(deps);
  }
  for (const OutputCopy& copy : copies_from_inputs_) output[copy.output] = {copy.from};
  for (const OutputCopy& copy : copies_from_scratch_)
    output[copy.output] = slot[copy.from + num_inputs_];
  return output;
}

}  // namespace dirac
