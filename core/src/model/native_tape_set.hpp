#pragma once
// Internal: a model's compiled tapes as machine code, chosen per run by `simulation.tape`
// (symbolic::NativeTapes does the compile and the cache). Thread-safe: runs on several threads
// (sweeps, the GUI's worker) share one set; the native copies are built once and never change.
//
// The rule of `auto`, so that a short run never waits for a compiler: machine code when the
// cache holds this model's tapes (loading costs about a millisecond), else the interpreter for
// this run while a detached background compile fills the cache, which later runs of the same
// model (in this process: sweeps, the GUI; or in the next process) then load.

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dirac/scenario.hpp"
#include "symbolic/compiled_function.hpp"
#include "symbolic/native_tapes.hpp"

namespace dirac::model {

/// The mode logic, independent of how a model groups its tapes.
class NativeTapeChoice {
 public:
  /// `functions` must outlive this object (they belong to the model).
  explicit NativeTapeChoice(std::vector<const CompiledFunction*> functions);
  ~NativeTapeChoice();
  /// Under `mode`, whether machine code is loaded for this run (possibly after compiling, for
  /// kNative); `description` gets one line for the run report. Call with the lock held.
  bool Choose(TapeMode mode, std::string& description);
  /// Function `i` as machine code (after Choose returned true).
  CompiledFunction Native(std::size_t i) const { return tapes_->Native(i); }

 private:
  std::vector<const CompiledFunction*> functions_;
  std::unique_ptr<symbolic::NativeTapes> tapes_;
};

/// `Bundle` is a model's struct of tapes; `visit(bundle, f)` calls f on each of its tapes in a
/// fixed order.
template <class Bundle>
class NativeTapeSet {
 public:
  using Visit = void (*)(Bundle&, const std::function<void(CompiledFunction&)>&);

  /// `interpreted` must outlive this object.
  NativeTapeSet(const Bundle& interpreted, Visit visit)
      : interpreted_(interpreted), visit_(visit), choice_(Collect(interpreted, visit)) {}

  /// The bundle a run in `mode` evaluates: the machine-code copy or the interpreted original.
  const Bundle& Select(TapeMode mode, std::string& description) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!choice_.Choose(mode, description)) return interpreted_;
    if (!native_) {
      auto native = std::make_unique<Bundle>(interpreted_);
      std::size_t i = 0;
      visit_(*native, [&](CompiledFunction& f) { f = choice_.Native(i++); });
      native_ = std::move(native);
    }
    return *native_;
  }

 private:
  static std::vector<const CompiledFunction*> Collect(const Bundle& bundle, Visit visit) {
    std::vector<const CompiledFunction*> out;
    visit(const_cast<Bundle&>(bundle), [&](CompiledFunction& f) { out.push_back(&f); });
    return out;
  }

  const Bundle& interpreted_;
  Visit visit_;
  mutable std::mutex mutex_;
  mutable NativeTapeChoice choice_;
  mutable std::unique_ptr<const Bundle> native_;
};

}  // namespace dirac::model
