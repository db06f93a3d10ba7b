// CompiledFunction::WriteNativeSource: a tape as C (symbolic/native_tapes.hpp compiles a model's
// batch). A short tape is one function whose intermediates are locals. A long one is split into
// parts of at most kPartInstructions instructions, each a function of its own that the compiler
// may not inline back, called in order: the C compiler's optimiser grows faster than linearly
// with the length of a function (a 40-link chain's residual, 22 000 instructions as one function,
// took minutes), and in parts it is linear; the parts are units of their own, which the batch
// may compile as several files in parallel. An intermediate read in a later part than the one
// that wrote it lives in the scratch array `s` the caller passes (the interpreter's, of
// scratch_size() entries); the others stay locals of their part. A double in memory or in a
// register is the same double (SSE2, -ffp-contract=off), so the machine code keeps the
// interpreter's bits either way.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "symbolic/compiled_function.hpp"

namespace dirac {

using Op = TapeInstruction::Op;

namespace {

// Instructions per C function of a long tape (see above).
constexpr std::size_t kPartInstructions = 2000;
// Constant outputs (and outputs copied from inputs) past this many are written from a table.
constexpr std::size_t kTableOutputs = 32;

// "a, b, c", eight to a line.
std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i % 8 == 0 ? ",\n    " : ", ") + items[i];
  return out;
}

// C for one op, mirroring DIRAC_TAPE_OPS term by term (the same operations in the same order;
// -ffp-contract=off keeps a * b + c two roundings, as Rounded() does in the interpreter).
std::string NativeExpression(Op op, const std::string& a, const std::string& b,
                             const std::string& c, const std::string& d, const std::string& k,
                             std::int32_t n) {
  switch (op) {
    case Op::kConst:
      return k;
    case Op::kInput:
      return a;
    case Op::kAdd:
      return a + " + " + b;
    case Op::kSub:
      return a + " - " + b;
    case Op::kMul:
      return a + " * " + b;
    case Op::kDiv:
      return a + " / " + b;
    case Op::kNeg:
      return "-" + a;
    case Op::kSquare:
      return a + " * " + a;
    case Op::kPowInt:
      return "dirac_ipow(" + a + ", " + std::to_string(n) + ")";
    case Op::kPow:
      return "pow(" + a + ", " + b + ")";
    case Op::kSqrt:
      return "__builtin_sqrt(" + a + ")";
    case Op::kExp:
      return "exp(" + a + ")";
    case Op::kLog:
      return "log(" + a + ")";
    case Op::kSin:
      return "sin(" + a + ")";
    case Op::kCos:
      return "cos(" + a + ")";
    case Op::kTan:
      return "tan(" + a + ")";
    case Op::kAsin:
      return "asin(" + a + ")";
    case Op::kAcos:
      return "acos(" + a + ")";
    case Op::kAtan:
      return "atan(" + a + ")";
    case Op::kAtan2:
      return "atan2(" + a + ", " + b + ")";
    case Op::kSinh:
      return "sinh(" + a + ")";
    case Op::kCosh:
      return "cosh(" + a + ")";
    case Op::kTanh:
      return "tanh(" + a + ")";
    case Op::kAbs:
      return "__builtin_fabs(" + a + ")";
    case Op::kAddK:
      return a + " + " + k;
    case Op::kMulK:
      return a + " * " + k;
    case Op::kSubFromK:
      return k + " - " + a;
    case Op::kDivFromK:
      return k + " / " + a;
    case Op::kMulAdd:
      return a + " * " + b + " + " + c;
    case Op::kMulSub:
      return a + " * " + b + " - " + c;
    case Op::kNegMulAdd:
      return c + " - " + a + " * " + b;
    case Op::kMulKAdd:
      return a + " * " + k + " + " + b;
    case Op::kMulKSub:
      return a + " * " + k + " - " + b;
    case Op::kNegMul:
      return "-(" + a + " * " + b + ")";
    case Op::kMulMulAdd:
      return a + " * " + b + " + " + c + " * " + d;
    case Op::kMulMulSub:
      return a + " * " + b + " - " + c + " * " + d;
    case Op::kMul3:
      return a + " * " + b + " * " + c;
  }
  return "0";
}

std::string HexDouble(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "(%a)", v);
  return buffer;
}

}  // namespace

bool CompiledFunction::WriteNativeSource(std::vector<std::string>& units,
                                         const std::string& name) const {
  if (code_.empty()) return false;
  const std::size_t parts = tape_.size() <= kPartInstructions
                                ? 1
                                : (tape_.size() + kPartInstructions - 1) / kPartInstructions;
  // shared[k]: slot k is touched by more than one part (the output copies count as a part of
  // their own), so it lives in s[k]; part_of[k]: the one part that touches it, else.
  std::vector<char> shared(scratch_size_, 0);
  std::vector<std::size_t> part_of(scratch_size_, SIZE_MAX);
  const auto touch = [&](std::int64_t slot, std::size_t part) {
    if (slot < static_cast<std::int64_t>(num_inputs_)) return;
    const auto k = static_cast<std::size_t>(slot) - num_inputs_;
    if (part_of[k] == SIZE_MAX) part_of[k] = part;
    if (part_of[k] != part) shared[k] = 1;
  };
  for (std::size_t i = 0; i < tape_.size(); ++i) {
    const TapeInstruction& in = tape_[i];
    if (!std::isfinite(in.constant)) return false;
    const std::size_t part = parts == 1 ? 0 : i / kPartInstructions;
    const int operands = TapeInstruction::SlotOperands(in.op);
    if (in.op != Op::kInput && operands >= 1) touch(in.a, part);
    if (operands >= 2) touch(in.b, part);
    if (operands >= 3) touch(in.c, part);
    if (operands >= 4) touch(in.d, part);
    if (in.dst >= 0) touch(in.dst, part);
  }
  if (parts > 1)
    for (const OutputCopy& copy : copies_from_scratch_)
      touch(static_cast<std::int64_t>(num_inputs_ + copy.from), parts);
  const auto scratch = [&](std::size_t k) {
    return (shared[k] ? "s[" : "v") + std::to_string(k) + (shared[k] ? "]" : "");
  };
  const auto operand = [&](std::int32_t slot) {
    return static_cast<std::size_t>(slot) < num_inputs_
               ? "in[" + std::to_string(slot) + "]"
               : scratch(static_cast<std::size_t>(slot) - num_inputs_);
  };
  const std::string signature =
      "(const double* restrict in, double* restrict out, double* restrict s)";
  const std::string opening = signature + " {\n  (void)in; (void)out; (void)s;\n";
  const auto part_name = [&](std::size_t part) { return name + "_part" + std::to_string(part); };
  std::ostringstream body;
  for (std::size_t part = 0; part < parts; ++part) {
    body << (parts == 1 ? "void " + name : "__attribute__((noinline)) void " + part_name(part))
         << opening;
    bool first = true;
    for (std::size_t k = 0; k < scratch_size_; ++k)
      if (!shared[k] && (parts == 1 || part_of[k] == part)) {
        body << (first ? "  double v" : ", v") << k;
        first = false;
      }
    if (!first) body << ";\n";
    const std::size_t end = std::min(tape_.size(), (part + 1) * kPartInstructions);
    for (std::size_t i = part * kPartInstructions; i < (parts == 1 ? tape_.size() : end); ++i) {
      const TapeInstruction& in = tape_[i];
      const int operands = TapeInstruction::SlotOperands(in.op);
      const std::string a = in.op == Op::kInput ? "in[" + std::to_string(in.a) + "]"
                            : operands >= 1     ? operand(in.a)
                                                : "";
      const std::string b = operands >= 2 ? operand(in.b) : "";
      const std::string c = operands >= 3 ? operand(in.c) : "";
      const std::string d = operands >= 4 ? operand(in.d) : "";
      const std::string dst =
          in.dst >= 0 ? operand(in.dst) : "out[" + std::to_string(-1 - std::int64_t{in.dst}) + "]";
      body << "  " << dst << " = "
           << NativeExpression(in.op, a, b, c, d, HexDouble(in.constant), in.b) << ";\n";
    }
    if (parts > 1) {  // each part is a unit of its own: the batch may spread them over files
      body << "}\n";
      units.push_back(body.str());
      body.str("");
    }
  }
  if (parts > 1) {
    for (std::size_t part = 0; part < parts; ++part)
      body << "void " << part_name(part) << signature << ";\n";
    body << "void " << name << opening;
    for (std::size_t part = 0; part < parts; ++part)
      body << "  " << part_name(part) << "(in, out, s);\n";
  }
  for (const ConstantOutput& c : constant_outputs_)
    if (!std::isfinite(c.value)) return false;
  if (constant_outputs_.size() <= kTableOutputs) {
    for (const ConstantOutput& c : constant_outputs_)
      body << "  out[" << c.output << "] = " << HexDouble(c.value) << ";\n";
  } else {  // a table and a loop: a mass matrix's zeros as statements cost more than the rest
    std::vector<std::string> outputs, values;
    for (const ConstantOutput& c : constant_outputs_) {
      outputs.push_back(std::to_string(c.output));
      values.push_back(HexDouble(c.value));
    }
    body << "  static const int ko[] = {" << Joined(outputs) << "};\n"
         << "  static const double kv[] = {" << Joined(values) << "};\n"
         << "  for (int i = 0; i < " << outputs.size() << "; ++i) out[ko[i]] = kv[i];\n";
  }
  for (const OutputCopy& copy : copies_from_scratch_)
    body << "  out[" << copy.output << "] = " << scratch(copy.from) << ";\n";
  if (copies_from_inputs_.size() <= kTableOutputs) {
    for (const OutputCopy& copy : copies_from_inputs_)
      body << "  out[" << copy.output << "] = in[" << copy.from << "];\n";
  } else {
    std::vector<std::string> outputs, inputs;
    for (const OutputCopy& copy : copies_from_inputs_) {
      outputs.push_back(std::to_string(copy.output));
      inputs.push_back(std::to_string(copy.from));
    }
    body << "  static const int co[] = {" << Joined(outputs) << "};\n"
         << "  static const int ci[] = {" << Joined(inputs) << "};\n"
         << "  for (int i = 0; i < " << outputs.size() << "; ++i) out[co[i]] = in[ci[i]];\n";
  }
  body << "}\n";
  units.push_back(body.str());
  return true;
}

}  // namespace dirac
