#include "model/native_tape_set.hpp"

#include <cstdio>

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
