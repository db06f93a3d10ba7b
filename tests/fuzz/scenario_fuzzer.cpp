// libFuzzer target: a scenario file's text through the reader and the expression parser
// (ParseScenario, which parses and checks every expression), then the writer and the reader
// again. The only acceptable failure is a dirac::Error; anything else (another exception, a
// crash, a sanitizer report, a hang past libFuzzer's -timeout) is a finding. Findings are kept
// under tests/fuzz_regressions/ and replayed by the unit test FuzzRegressions.*.
#include <cstddef>
#include <cstdint>
#include <string>

#include "dirac/error.hpp"
#include "dirac/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  dirac::Scenario scenario;
  try {
    scenario = dirac::ParseScenario(text, "fuzz.yaml");
  } catch (const dirac::Error&) {
    return 0;  // a clean error: the reader refused the text
  }
  // Accepted: the writer's text must read back (SaveScenarioToString's contract).
  const std::string written = dirac::SaveScenarioToString(scenario);
  try {
    dirac::ParseScenario(written, "fuzz-written.yaml");
  } catch (const dirac::Error&) {
    // A scenario the reader accepted but whose written form it refuses: a writer/reader
    // mismatch, reported as a crash so that libFuzzer keeps the input.
    __builtin_trap();
  }
  return 0;
}
