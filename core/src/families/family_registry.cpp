// The family table, the range check and the atomic write (families.hpp).
#include <string>
#include <string_view>
#include <vector>

#include "dirac/families.hpp"
#include "families/family_text.hpp"
#include "io/atomic_file.hpp"

namespace dirac {
namespace {

struct Generator {
  FamilyInfo info;
  std::string (*generate)(int n);
};

const std::vector<Generator>& Generators() {
  static const std::vector<Generator> generators = {
      {{"pendulum_chain", 2, 40, "planar n-link pendulum in absolute angles"},
       families::PendulumChain},
      {{"rigid_body_so", 3, 12, "free generalised rigid body on so(n), n(n-1)/2 velocities"},
       families::RigidBodySo},
      {{"point_vortices", 2, 32, "N point vortices, a Lagrangian linear in velocity"},
       families::PointVortices},
      {{"car_trailers", 1, 20, "a car pulling n trailers, n + 1 knife-edge constraints"},
       families::CarTrailers},
  };
  return generators;
}

}  // namespace

const std::vector<FamilyInfo>& Families() {
  static const std::vector<FamilyInfo> infos = [] {
    std::vector<FamilyInfo> list;
    for (const Generator& g : Generators()) list.push_back(g.info);
    return list;
  }();
  return infos;
}

namespace {

std::string Generate(std::string_view family, int n, bool beyond_range) {
  std::vector<std::string> names;
  for (const Generator& g : Generators()) {
    if (g.info.name == family) {
      if (n < g.info.min_size || (n > g.info.max_size && !beyond_range))
        throw FamilyError("family " + std::string(family) + ": size " + std::to_string(n) +
                          " is outside " + std::to_string(g.info.min_size) + " ... " +
                          std::to_string(g.info.max_size));
      return g.generate(n);
    }
    names.emplace_back(g.info.name);
  }
  throw FamilyError("unknown family '" + std::string(family) +
                    "' (known: " + families::Join(names, ", ") + ")");
}

}  // namespace

std::string GenerateFamilyScenario(std::string_view family, int n) {
  return Generate(family, n, false);
}

std::string GenerateFamilyScenarioBeyondRange(std::string_view family, int n) {
  return Generate(family, n, true);
}

void WriteFamilyScenario(std::string_view family, int n, const std::string& path) {
  const std::string text = GenerateFamilyScenario(family, n);
  io::AtomicFile file(path);
  file.Write(text);
  file.Commit();
}

}  // namespace dirac
