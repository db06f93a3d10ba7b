#include "symbolic/compiled_function.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include "dirac/error.hpp"
#include "symbolic/native_tapes.hpp"

// The interpreter is threaded code: GCC and Clang jump through a table of label addresses, one
// indirect jump at the end of every block (the branch predictor learns each separately, and
// there is no bounds check). Other compilers, or -DDIRAC_TAPE_SWITCH_DISPATCH, use a switch.
#if defined(__GNUC__) && !defined(DIRAC_TAPE_SWITCH_DISPATCH)
#define DIRAC_TAPE_COMPUTED_GOTO 1
#else
#define DIRAC_TAPE_COMPUTED_GOTO 0
#endif

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

// Rounds a product before it is summed. Without this the compiler may contract a * b + c into a
// hardware fused multiply-add (GCC does with -ffp-contract=fast, its default outside ISO mode;
// Clang within an expression), and fused ops would no longer give the bits of the separate ops.
inline double Rounded(double x) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+x"(x));
#elif defined(__GNUC__) && defined(__aarch64__)
  asm("" : "+w"(x));
#endif
  return x;
}

// Every op with its number of slot operands and the value it computes, in the order of
// TapeInstruction::Op. In the expressions A, B, C, D are the operands, K the constant and N the
// integer exponent.
// clang-format off
#define DIRAC_TAPE_OPS(X)                                 \
  X(kConst, 0, K)                                         \
  X(kInput, 0, inputs[ip->a])                             \
  X(kAdd, 2, A + B)                                       \
  X(kSub, 2, A - B)                                       \
  X(kMul, 2, A * B)                                       \
  X(kDiv, 2, A / B)                                       \
  X(kNeg, 1, -A)                                          \
  X(kSquare, 1, A * A)                                    \
  X(kPowInt, 1, IntPow(A, N))                             \
  X(kPow, 2, std::pow(A, B))                              \
  X(kSqrt, 1, std::sqrt(A))                               \
  X(kExp, 1, std::exp(A))                                 \
  X(kLog, 1, std::log(A))                                 \
  X(kSin, 1, std::sin(A))                                 \
  X(kCos, 1, std::cos(A))                                 \
  X(kTan, 1, std::tan(A))                                 \
  X(kAsin, 1, std::asin(A))                               \
  X(kAcos, 1, std::acos(A))                               \
  X(kAtan, 1, std::atan(A))                               \
  X(kAtan2, 2, std::atan2(A, B))                          \
  X(kSinh, 1, std::sinh(A))                               \
  X(kCosh, 1, std::cosh(A))                               \
  X(kTanh, 1, std::tanh(A))                               \
  X(kAbs, 1, std::fabs(A))                                \
  X(kAddK, 1, A + K)                                      \
  X(kMulK, 1, A * K)                                      \
  X(kSubFromK, 1, K - A)                                  \
  X(kDivFromK, 1, K / A)                                  \
  X(kMulAdd, 3, Rounded(A * B) + C)                       \
  X(kMulSub, 3, Rounded(A * B) - C)                       \
  X(kNegMulAdd, 3, C - Rounded(A * B))                    \
  X(kMulKAdd, 2, Rounded(A * K) + B)                      \
  X(kMulKSub, 2, Rounded(A * K) - B)                      \
  X(kNegMul, 2, -(A * B))                                 \
  X(kMulMulAdd, 4, Rounded(A * B) + Rounded(C * D))       \
  X(kMulMulSub, 4, Rounded(A * B) - Rounded(C * D))       \
  X(kMul3, 3, (A * B) * C)

// Where an operand comes from. The previous step's result stays in a register, so a value read
// by the very next step skips the store-to-load round trip that dominates dependent chains.
constexpr std::uint32_t kFromScratch = 0;
constexpr std::uint32_t kFromInput = 1;
constexpr std::uint32_t kFromRegister = 2;  // at most one operand per step, not for arity 4

// Operand sources (a, b, c, d) for each arity; every combination gets its own interpreter block.
// The lists for arity 0 to 3 are prefixes of one another.
#define DIRAC_SOURCES_0(F, ...)                                                     \
  F(__VA_ARGS__, 0, 0, 0, 0)
#define DIRAC_SOURCES_1(F, ...)                                                     \
  DIRAC_SOURCES_0(F, __VA_ARGS__)                                                   \
  F(__VA_ARGS__, 1, 0, 0, 0) F(__VA_ARGS__, 2, 0, 0, 0)
#define DIRAC_SOURCES_2(F, ...)                                                     \
  DIRAC_SOURCES_1(F, __VA_ARGS__)                                                   \
  F(__VA_ARGS__, 0, 1, 0, 0) F(__VA_ARGS__, 1, 1, 0, 0) F(__VA_ARGS__, 2, 1, 0, 0)  \
  F(__VA_ARGS__, 0, 2, 0, 0) F(__VA_ARGS__, 1, 2, 0, 0)
#define DIRAC_SOURCES_3(F, ...)                                                     \
  DIRAC_SOURCES_2(F, __VA_ARGS__)                                                   \
  F(__VA_ARGS__, 0, 0, 1, 0) F(__VA_ARGS__, 1, 0, 1, 0) F(__VA_ARGS__, 2, 0, 1, 0)  \
  F(__VA_ARGS__, 0, 1, 1, 0) F(__VA_ARGS__, 1, 1, 1, 0) F(__VA_ARGS__, 2, 1, 1, 0)  \
  F(__VA_ARGS__, 0, 2, 1, 0) F(__VA_ARGS__, 1, 2, 1, 0) F(__VA_ARGS__, 0, 0, 2, 0)  \
  F(__VA_ARGS__, 1, 0, 2, 0) F(__VA_ARGS__, 0, 1, 2, 0) F(__VA_ARGS__, 1, 1, 2, 0)
#define DIRAC_SOURCES_4(F, ...)                                                     \
  F(__VA_ARGS__, 0, 0, 0, 0) F(__VA_ARGS__, 1, 0, 0, 0) F(__VA_ARGS__, 0, 1, 0, 0)  \
  F(__VA_ARGS__, 1, 1, 0, 0) F(__VA_ARGS__, 0, 0, 1, 0) F(__VA_ARGS__, 1, 0, 1, 0)  \
  F(__VA_ARGS__, 0, 1, 1, 0) F(__VA_ARGS__, 1, 1, 1, 0) F(__VA_ARGS__, 0, 0, 0, 1)  \
  F(__VA_ARGS__, 1, 0, 0, 1) F(__VA_ARGS__, 0, 1, 0, 1) F(__VA_ARGS__, 1, 1, 0, 1)  \
  F(__VA_ARGS__, 0, 0, 1, 1) F(__VA_ARGS__, 1, 0, 1, 1) F(__VA_ARGS__, 0, 1, 1, 1)  \
  F(__VA_ARGS__, 1, 1, 1, 1)
// clang-format on

// Where a step puts its result (besides the register).
constexpr std::uint32_t kToScratch = 0;
constexpr std::uint32_t kToOutput = 1;
constexpr std::uint32_t kToRegisterOnly = 2;  // only the next step reads it
constexpr std::uint32_t kNumDestinations = 3;

struct Sources {
  std::uint32_t a, b, c, d;
};
#define DIRAC_SOURCE_ROW(unused, a, b, c, d) Sources{a, b, c, d},
constexpr Sources kSources3[] = {DIRAC_SOURCES_3(DIRAC_SOURCE_ROW, ~)};
constexpr Sources kSources4[] = {DIRAC_SOURCES_4(DIRAC_SOURCE_ROW, ~)};
#undef DIRAC_SOURCE_ROW
// Number of source combinations per arity (arity 0 to 3 index kSources3, arity 4 kSources4).
constexpr std::uint32_t kNumSources[] = {1, 3, 8, 20, 16};
static_assert(sizeof(kSources3) / sizeof(kSources3[0]) == kNumSources[3]);
static_assert(sizeof(kSources4) / sizeof(kSources4[0]) == kNumSources[4]);

#define DIRAC_OP_ARITY(name, arity, expr) arity,
constexpr int kOpArity[] = {DIRAC_TAPE_OPS(DIRAC_OP_ARITY)};
#undef DIRAC_OP_ARITY
#define DIRAC_OP_ENUMERATOR(name, arity, expr) Op::name,
constexpr Op kOpOrder[] = {DIRAC_TAPE_OPS(DIRAC_OP_ENUMERATOR)};
#undef DIRAC_OP_ENUMERATOR
constexpr std::uint32_t kNumOps = sizeof(kOpOrder) / sizeof(kOpOrder[0]);
static_assert(kNumOps == static_cast<std::uint32_t>(Op::kMul3) + 1,
              "DIRAC_TAPE_OPS must list every op");
constexpr bool OpTableMatchesEnum() {
  for (std::uint32_t i = 0; i < kNumOps; ++i) {
    if (static_cast<std::uint32_t>(kOpOrder[i]) != i) return false;
    if (kOpArity[i] != TapeInstruction::SlotOperands(kOpOrder[i])) return false;
  }
  return true;
}
static_assert(OpTableMatchesEnum(), "DIRAC_TAPE_OPS must list the ops in enum order");

// Dispatch code: blocks are laid out op by op, then by sources, then by destination.
constexpr std::uint32_t FirstCode(std::uint32_t op) {
  std::uint32_t code = 0;
  for (std::uint32_t i = 0; i < op; ++i) code += kNumSources[kOpArity[i]] * kNumDestinations;
  return code;
}
// The step that ends the tape; the second variant then stores the copied and constant outputs.
constexpr std::uint32_t kHaltCode = FirstCode(kNumOps);
constexpr std::uint32_t kHaltAndCopyCode = kHaltCode + 1;

constexpr std::uint32_t Code(Op op, Sources from, std::uint32_t destination) {
  const auto index = static_cast<std::uint32_t>(op);
  const int arity = kOpArity[index];
  for (std::uint32_t i = 0; i < kNumSources[arity]; ++i) {
    const Sources& s = arity == 4 ? kSources4[i] : kSources3[i];
    if (s.a == from.a && s.b == from.b && s.c == from.c && s.d == from.d) {
      return FirstCode(index) + i * kNumDestinations + destination;
    }
  }
  return kHaltCode;  // not reached for the combinations the constructor builds
}

bool HasConstant(Op op) {
  switch (op) {
    case Op::kConst:
    case Op::kAddK:
    case Op::kMulK:
    case Op::kSubFromK:
    case Op::kDivFromK:
    case Op::kMulKAdd:
    case Op::kMulKSub:
      return true;
    default:
      return false;
  }
}

}  // namespace

CompiledFunction::CompiledFunction(std::size_t num_inputs, std::vector<TapeInstruction> tape,
                                   std::vector<std::int32_t> output_slots, std::size_t num_slots)
    : num_inputs_(num_inputs), num_outputs_(output_slots.size()) {
  // Evaluate() trusts the tape blindly, so reject malformed tapes here once.
  if (num_slots < num_inputs) throw Error("CompiledFunction: fewer slots than inputs");
  if (num_slots > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) ||
      num_outputs_ > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw Error("CompiledFunction: too many slots or outputs");
  }
  scratch_size_ = num_slots - num_inputs;
  auto valid_slot = [num_slots](std::int32_t s) {
    return s >= 0 && static_cast<std::size_t>(s) < num_slots;
  };
  const auto operands_of = [](const TapeInstruction& in) {
    return std::array<std::int32_t, 4>{in.a, in.b, in.c, in.d};
  };
  std::vector<bool> written_by_tape(num_outputs_, false);
  std::vector<std::int64_t> last_writer(num_slots, -1);
  for (std::size_t i = 0; i < tape.size(); ++i) {
    const TapeInstruction& in = tape[i];
    const std::string where = "CompiledFunction: tape instruction " + std::to_string(i);
    if (static_cast<std::uint32_t>(in.op) >= kNumOps) throw Error(where + " has an unknown op");
    if (in.dst >= 0) {
      if (!valid_slot(in.dst)) throw Error(where + " writes slot out of range");
      if (static_cast<std::size_t>(in.dst) < num_inputs) throw Error(where + " writes an input");
      last_writer[in.dst] = static_cast<std::int64_t>(i);
    } else {
      const std::int64_t k = -1 - static_cast<std::int64_t>(in.dst);
      if (static_cast<std::size_t>(k) >= num_outputs_ || output_slots[k] != kWrittenByTape) {
        throw Error(where + " writes an output that is not marked kWrittenByTape");
      }
      written_by_tape[k] = true;
    }
    const auto operand = operands_of(in);
    for (int p = 0; p < TapeInstruction::SlotOperands(in.op); ++p) {
      if (!valid_slot(operand[p])) throw Error(where + " reads slot out of range");
    }
    if (in.op == Op::kInput && (in.a < 0 || static_cast<std::size_t>(in.a) >= num_inputs)) {
      throw Error(where + " reads input out of range");
    }
  }
  for (std::size_t k = 0; k < num_outputs_; ++k) {
    const std::int32_t s = output_slots[k];
    if (s == kWrittenByTape) {
      if (!written_by_tape[k]) {
        throw Error("CompiledFunction: output " + std::to_string(k) + " is never written");
      }
      continue;
    }
    if (!valid_slot(s)) throw Error("CompiledFunction: output slot out of range");
    const auto output = static_cast<std::uint32_t>(k);
    const std::int64_t writer = last_writer[s];
    if (static_cast<std::size_t>(s) < num_inputs) {
      copies_from_inputs_.push_back(OutputCopy{output, static_cast<std::uint32_t>(s)});
    } else if (writer >= 0 && tape[writer].op == Op::kConst) {
      constant_outputs_.push_back(ConstantOutput{output, tape[writer].constant});
    } else {
      copies_from_scratch_.push_back(
          OutputCopy{output, static_cast<std::uint32_t>(s - num_inputs)});
    }
  }

  // Drop instructions whose result nothing reads (e.g. constants now stored as constant
  // outputs): one backward liveness sweep.
  std::vector<bool> live(num_slots, false);
  for (const OutputCopy& copy : copies_from_scratch_) live[copy.from + num_inputs] = true;
  std::vector<bool> dead(tape.size(), false);
  for (std::size_t j = tape.size(); j-- > 0;) {
    const TapeInstruction& in = tape[j];
    if (in.dst >= 0) {
      if (!live[in.dst]) {
        dead[j] = true;
        continue;
      }
      live[in.dst] = false;
    }
    const auto operand = operands_of(in);
    for (int p = 0; p < TapeInstruction::SlotOperands(in.op); ++p) live[operand[p]] = true;
  }
  std::size_t kept = 0;
  for (std::size_t j = 0; j < tape.size(); ++j) {
    if (!dead[j]) tape[kept++] = tape[j];
  }
  tape.resize(kept);
  tape_ = tape;

  // Register passing. held_after_next[i]: the slot instruction i writes is read again after
  // instruction i + 1 (before being overwritten), found by a backward liveness sweep.
  const std::size_t n = tape.size();
  live.assign(num_slots, false);
  for (const OutputCopy& copy : copies_from_scratch_) live[copy.from + num_inputs] = true;
  std::vector<bool> held_after_next(n, true);
  for (std::size_t j = n; j-- > 0;) {
    // Here `live` holds the slots read after instruction j.
    if (j >= 1 && tape[j - 1].dst >= 0) {
      const std::int32_t d = tape[j - 1].dst;
      held_after_next[j - 1] = tape[j].dst != d && live[d];
    }
    const TapeInstruction& in = tape[j];
    if (in.dst >= 0) live[in.dst] = false;
    const auto operand = operands_of(in);
    for (int p = 0; p < TapeInstruction::SlotOperands(in.op); ++p) live[operand[p]] = true;
  }

  std::vector<std::uint32_t> destination(n);
  std::vector<std::array<std::uint32_t, 4>> sources(n);
  for (std::size_t j = 0; j < n; ++j) {
    const TapeInstruction& in = tape[j];
    destination[j] = in.dst >= 0 ? kToScratch : kToOutput;
    const auto operand = operands_of(in);
    const int operands = TapeInstruction::SlotOperands(in.op);
    std::array<std::uint32_t, 4>& from = sources[j];
    from.fill(kFromScratch);
    for (int p = 0; p < operands; ++p) {
      if (static_cast<std::size_t>(operand[p]) < num_inputs) from[p] = kFromInput;
    }
    if (j >= 1 && tape[j - 1].dst >= 0 && operands <= 3) {
      // Take the previous result from the register (the last operand that reads it).
      const std::int32_t d = tape[j - 1].dst;
      int reads = 0;
      int last = -1;
      for (int p = 0; p < operands; ++p) {
        if (operand[p] == d) {
          ++reads;
          last = p;
        }
      }
      if (last >= 0) {
        from[last] = kFromRegister;
        if (reads == 1 && !held_after_next[j - 1]) destination[j - 1] = kToRegisterOnly;
      }
    }
  }

  code_.reserve(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    const TapeInstruction& in = tape[i];
    const std::array<std::uint32_t, 4>& from = sources[i];
    Step step{};
    step.code = Code(in.op, Sources{from[0], from[1], from[2], from[3]}, destination[i]);
    if (in.dst >= 0) {
      step.dst = static_cast<std::uint32_t>(in.dst) - static_cast<std::uint32_t>(num_inputs);
    } else {
      step.dst = static_cast<std::uint32_t>(-1 - static_cast<std::int64_t>(in.dst));
    }
    // Each slot operand indexes the array it is read from.
    std::uint32_t index[4] = {0, 0, 0, 0};
    const auto operand = operands_of(in);
    const int operands = TapeInstruction::SlotOperands(in.op);
    for (int p = 0; p < operands; ++p) {
      index[p] = static_cast<std::uint32_t>(operand[p]);
      if (from[p] == kFromScratch) index[p] -= static_cast<std::uint32_t>(num_inputs);
    }
    step.a = index[0];
    step.b = index[1];
    if (operands >= 3) {
      step.cd[0] = index[2];
      step.cd[1] = index[3];
    } else if (HasConstant(in.op)) {
      step.k = in.constant;
    }
    if (in.op == Op::kInput) step.a = static_cast<std::uint32_t>(in.a);
    if (in.op == Op::kPowInt) step.b = static_cast<std::uint32_t>(in.b);  // the exponent
    code_.push_back(step);
  }
  Step halt{};
  const bool copies =
      !constant_outputs_.empty() || !copies_from_scratch_.empty() || !copies_from_inputs_.empty();
  halt.code = copies ? kHaltAndCopyCode : kHaltCode;
  code_.push_back(halt);
  if (const void* const* labels = Run(nullptr, nullptr, nullptr, nullptr)) {
    for (Step& step : code_) step.handler = labels[step.code];
  }
}

void CompiledFunction::Evaluate(const double* inputs, double* outputs, double* scratch) const {
  if (native_ != nullptr) {
    native_(inputs, outputs, scratch);
  } else if (!code_.empty()) {
    Run(this, inputs, outputs, scratch);  // else default-constructed: no-op
  }
}

CompiledFunction CompiledFunction::WithNativeCode(void (*code)(const double*, double*, double*),
                                                  std::shared_ptr<void> library) const {
  CompiledFunction copy = *this;
  copy.native_ = code;
  copy.library_ = std::move(library);
  return copy;
}

bool CompiledFunction::CompileToMachineCode() {
  if (code_.empty()) return false;
  if (native_ != nullptr) return true;
  symbolic::NativeTapes batch({this});
  if (!batch.Compile()) return false;
  *this = batch.Native(0);
  return true;
}

const void* const* CompiledFunction::Run(const CompiledFunction* f, const double* inputs,
                                         double* outputs, double* scratch) {
#define DIRAC_OPERAND(from, field) \
  (from == kFromRegister ? acc : from == kFromInput ? inputs[ip->field] : s[ip->field])
#define A DIRAC_OPERAND(kFromA, a)
#define B DIRAC_OPERAND(kFromB, b)
#define C DIRAC_OPERAND(kFromC, cd[0])
#define D DIRAC_OPERAND(kFromD, cd[1])
#define K ip->k
#define N static_cast<std::int32_t>(ip->b)

#if DIRAC_TAPE_COMPUTED_GOTO
#define DIRAC_LABEL(name, a, b, c, d, destination) L_##name##_##a##_##b##_##c##_##d##_##destination
#define DIRAC_ENTRY(name, a, b, c, d, destination) DIRAC_LABEL(name, a, b, c, d, destination) :
#define DIRAC_NEXT goto*(++ip)->handler
#define DIRAC_SOURCE_LABELS(name, a, b, c, d)                             \
  &&DIRAC_LABEL(name, a, b, c, d, 0), &&DIRAC_LABEL(name, a, b, c, d, 1), \
      &&DIRAC_LABEL(name, a, b, c, d, 2),
#define DIRAC_OP_LABELS(name, arity, expr) DIRAC_SOURCES_##arity(DIRAC_SOURCE_LABELS, name)
  static const void* const kLabels[] = {DIRAC_TAPE_OPS(DIRAC_OP_LABELS) && L_halt,
                                        &&L_copy_outputs};
  static_assert(sizeof(kLabels) / sizeof(kLabels[0]) == kHaltAndCopyCode + 1);
  if (f == nullptr) return kLabels;
#else
  if (f == nullptr) return nullptr;
#endif
  double* const s = scratch;
  double* const o = outputs;
  const Step* ip = f->code_.data();
  double acc = 0.0;  // result of the previous step

#if !DIRAC_TAPE_COMPUTED_GOTO
#define DIRAC_ENTRY(name, a, b, c, d, destination) \
  case Code(Op::name, Sources{a, b, c, d}, destination):
#define DIRAC_NEXT \
  ++ip;            \
  continue
#endif

#define DIRAC_BLOCK(name, expr, a, b, c, d, destination) \
  DIRAC_ENTRY(name, a, b, c, d, destination) {           \
    [[maybe_unused]] constexpr std::uint32_t kFromA = a; \
    [[maybe_unused]] constexpr std::uint32_t kFromB = b; \
    [[maybe_unused]] constexpr std::uint32_t kFromC = c; \
    [[maybe_unused]] constexpr std::uint32_t kFromD = d; \
    acc = (expr);                                        \
    if constexpr (destination == kToScratch) {           \
      s[ip->dst] = acc;                                  \
    } else if constexpr (destination == kToOutput) {     \
      o[ip->dst] = acc;                                  \
    }                                                    \
    DIRAC_NEXT;                                          \
  }
#define DIRAC_SOURCE_BLOCKS(name, expr, a, b, c, d) \
  DIRAC_BLOCK(name, expr, a, b, c, d, 0)            \
  DIRAC_BLOCK(name, expr, a, b, c, d, 1) DIRAC_BLOCK(name, expr, a, b, c, d, 2)
#define DIRAC_OP_BLOCKS(name, arity, expr) DIRAC_SOURCES_##arity(DIRAC_SOURCE_BLOCKS, name, expr)

#if DIRAC_TAPE_COMPUTED_GOTO
  goto * ip->handler;
  DIRAC_TAPE_OPS(DIRAC_OP_BLOCKS)
L_halt:
  return nullptr;
L_copy_outputs:
#else
  for (;;) {
    switch (ip->code) {
      DIRAC_TAPE_OPS(DIRAC_OP_BLOCKS)
      case kHaltCode:
        return nullptr;
      default:
        goto copy_outputs;  // kHaltAndCopyCode; the constructor emits no other code
    }
  }
copy_outputs:
#endif

  for (const ConstantOutput& c : f->constant_outputs_) o[c.output] = c.value;
  for (const OutputCopy& copy : f->copies_from_scratch_) o[copy.output] = s[copy.from];
  for (const OutputCopy& copy : f->copies_from_inputs_) o[copy.output] = inputs[copy.from];
  return nullptr;
}

#undef DIRAC_OP_BLOCKS
#undef DIRAC_SOURCE_BLOCKS
#undef DIRAC_BLOCK
#undef DIRAC_OP_LABELS
#undef DIRAC_SOURCE_LABELS
#undef DIRAC_NEXT
#undef DIRAC_ENTRY
#undef DIRAC_LABEL
#undef N
#undef K
#undef D
#undef C
#undef B
#undef A
#undef DIRAC_OPERAND
#undef DIRAC_SOURCES_4
#undef DIRAC_SOURCES_3
#undef DIRAC_SOURCES_2
#undef DIRAC_SOURCES_1
#undef DIRAC_SOURCES_0
#undef DIRAC_TAPE_OPS

std::vector<double> CompiledFunction::Evaluate(const std::vector<double>& inputs) const {
  if (inputs.size() != num_inputs_) {
    throw Error("CompiledFunction::Evaluate: expected " + std::to_string(num_inputs_) +
                " inputs, got " + std::to_string(inputs.size()));
  }
  std::vector<double> scratch(scratch_size_);
  std::vector<double> outputs(num_outputs_);
  Evaluate(inputs.data(), outputs.data(), scratch.data());
  return outputs;
}

}  // namespace dirac
