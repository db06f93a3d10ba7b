#include "dirac/symbolic_lock.hpp"

namespace dirac {

std::mutex& SymbolicMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace dirac
