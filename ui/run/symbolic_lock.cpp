#include "run/symbolic_lock.hpp"

namespace dirac::ui {

std::mutex& SymbolicMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace dirac::ui
