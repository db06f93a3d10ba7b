#pragma once
// The linearization tests' scenarios: the copies in tests/linearization/ (steady motions the
// shipped files do not start on), loaded with `--set` overrides.
#include <string>
#include <vector>

#include "dirac/scenario.hpp"

namespace dirac::linearization_test {

/// The path of tests/linearization/<name>.yaml.
inline std::string Copy(const std::string& name) {
  return std::string(DIRAC_SOURCE_DIR) + "/tests/linearization/" + name + ".yaml";
}

/// That scenario with the overrides `set` ("name=value") applied.
inline Scenario Load(const std::string& name, const std::vector<std::string>& set) {
  Scenario s = LoadScenario(Copy(name));
  ApplyOverrides(s, set);
  return s;
}

}  // namespace dirac::linearization_test
