#pragma once
/// @file derivation_control.hpp
/// Stage reports and cancellation of a derivation (BuildModel, the lazy derivations such as
/// Model::gauge_two_form()) running on the calling thread. Layer: base.
///
/// A caller that derives on a worker installs a DerivationScope; the derivation then calls
/// EnterDerivationStage() at its stages and CheckDerivationCancelled() at checkpoints between
/// symbolic operations (every derivative, every compiled output, every exact simplification), so
/// that a cancel request ends it within a fraction of a second. Without a scope both are no-ops
/// (one thread-local load).

#include <atomic>
#include <functional>
#include <string>

#include "dirac/error.hpp"

namespace dirac {

/// Thrown at a derivation checkpoint once the cancel flag of the thread's DerivationScope is set.
/// Not a ModelError: no fallback method catches it, and callers that name the scenario file
/// pass it through unchanged. what() is "the derivation was cancelled".
class DerivationCancelled : public Error {
 public:
  DerivationCancelled();
};

/// What a derivation on this thread reports to, and is stopped by.
struct DerivationObserver {
  /// When it becomes true, the next checkpoint throws DerivationCancelled (may be null).
  const std::atomic<bool>* cancel = nullptr;
  /// Called on the deriving thread when a stage begins, with its name ("differentiating the
  /// Lagrangian"); must be cheap and must not throw (may be empty).
  std::function<void(const std::string& stage)> on_stage;
};

/// Installs `observer` for the derivations of the calling thread for the scope's lifetime;
/// scopes nest (the previous one is restored on destruction).
class DerivationScope {
 public:
  explicit DerivationScope(DerivationObserver observer);
  ~DerivationScope();
  DerivationScope(const DerivationScope&) = delete;
  DerivationScope& operator=(const DerivationScope&) = delete;

 private:
  DerivationObserver observer_;
  const DerivationScope* previous_;
  friend void CheckDerivationCancelled();
  friend void EnterDerivationStage(const std::string& stage);
};

/// A checkpoint: throws DerivationCancelled if the cancel flag of the calling thread's
/// innermost DerivationScope is set; does nothing otherwise.
void CheckDerivationCancelled();

/// Names the stage the derivation enters: reports it to the scope's on_stage, then checks
/// cancellation (throws DerivationCancelled like CheckDerivationCancelled()).
void EnterDerivationStage(const std::string& stage);

}  // namespace dirac
