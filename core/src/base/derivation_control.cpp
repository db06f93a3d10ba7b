#include "dirac/derivation_control.hpp"

#include <utility>

namespace dirac {
namespace {

thread_local const DerivationScope* g_scope = nullptr;

}  // namespace

DerivationCancelled::DerivationCancelled() : Error("the derivation was cancelled") {}

DerivationScope::DerivationScope(DerivationObserver observer)
    : observer_(std::move(observer)), previous_(g_scope) {
  g_scope = this;
}

DerivationScope::~DerivationScope() { g_scope = previous_; }

void CheckDerivationCancelled() {
  const DerivationScope* scope = g_scope;
  if (scope && scope->observer_.cancel && scope->observer_.cancel->load(std::memory_order_relaxed))
    throw DerivationCancelled();
}

void EnterDerivationStage(const std::string& stage) {
  if (const DerivationScope* scope = g_scope; scope && scope->observer_.on_stage)
    scope->observer_.on_stage(stage);
  CheckDerivationCancelled();
}

}  // namespace dirac
