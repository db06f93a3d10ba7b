#include "model/native_tape_set.hpp"

#include <cstdio>

// Sanitizer builds keep the interpreter: the sanitizers cannot see into generated machine code
// (and the interpreter is what they should check).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DIRAC_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define DIRAC_SANITIZED_BUILD 1
#endif
#endif
#ifndef DIRAC_SANITIZED_BUILD
#define DIRAC_SANITIZED_BUILD 0
#endif

namespace dirac::model {

NativeTapeChoice::NativeTapeChoice(std::vector<const CompiledFunction*> functions)
    : functions_(std::move(functions)) {}

NativeTapeChoice::~NativeTapeChoice() = default;

bool NativeTapeChoice::Choose(TapeMode mode, std::string& description) {
  if (mode == TapeMode::kInterpreter) {
    description = "interpreter (simulation.tape = interpreter)";
    return false;
  }
  // The source is generated once, at the first run that may use it.
  if (!tapes_) tapes_ = std::make_unique<symbolic::NativeTapes>(functions_);
  if (DIRAC_SANITIZED_BUILD && tapes_->note().empty()) {
    description = "interpreter (a sanitizer build: machine code would hide the evaluations)";
    return false;
  }
  const bool loaded = mode == TapeMode::kNative ? tapes_->Compile() : tapes_->LoadCached();
  if (loaded) {
    if (tapes_->compiled_here()) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.2f", tapes_->compile_seconds());
      description = "native (machine code compiled in " + std::string(seconds) + " s, cached)";
    } else {
      description = "native (machine code from the cache)";
    }
    return true;
  }
  if (mode == TapeMode::kAuto) tapes_->CompileInBackground();
  if (!tapes_->note().empty()) {
    description = "interpreter (no machine code: " + tapes_->note() + ")";
  } else {
    description = "interpreter (machine code is being compiled in the background for later runs)";
  }
  return false;
}

}  // namespace dirac::model
