#include "dirac/torus_modes.hpp"

#include "families/lie_algebra_family.hpp"

namespace dirac {

std::vector<TorusMode> ZeitlinTorusModes(int size) {
  const families::LieAlgebraBasis basis = families::LieAlgebraBasisOf("zeitlin_torus", size);
  std::vector<TorusMode> modes;
  modes.reserve(basis.dimension());
  for (std::size_t i = 0; i < basis.dimension(); ++i)
    modes.push_back({basis.names[i], basis.modes[i][0], basis.modes[i][1], basis.sine[i]});
  return modes;
}

}  // namespace dirac
