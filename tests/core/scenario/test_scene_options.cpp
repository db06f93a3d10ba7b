// Scene options: the generic view.scene bag, its errors (file, line, key path) and its round
// trip through save and load for every shipped scenario.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "dirac/error.hpp"
#include "dirac/scenario.hpp"
#include "dirac/scene_options.hpp"

namespace dirac {
namespace {

constexpr const char* kScene = R"yaml(name: n
coordinates: [{name: x}, {name: y}]
lagrangian: "(vx^2 + vy^2)/2"
view:
  scene:
    type: planar_bodies
    trail: fast
    scale: 0.5
    box: [1, abc, 2]
    label: [a]
    position: x
    bodies:
      - {x: x, y: y, angle: [x, y]}
      - {x: x, bogus: 1}
)yaml";

SceneOptions Options() { return ParseScenario(kScene, "case.yaml").scene.options; }

template <typename F>
ScenarioError ExpectError(F&& f) {
  try {
    f();
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "no ScenarioError";
  return ScenarioError("", 0, "", "");
}

TEST(SceneOptions, ReaderKeepsEverythingButTheTypeAsText) {
  const Scenario s = ParseScenario(kScene, "case.yaml");
  EXPECT_EQ(s.scene.type, "planar_bodies");
  EXPECT_EQ(s.scene.where.line, 6u);
  const SceneOptions& o = s.scene.options;
  EXPECT_EQ(o.file(), "case.yaml");
  EXPECT_EQ(o.path(), "view.scene");
  EXPECT_FALSE(o.Has("type"));
  EXPECT_EQ(o.String("trail"), "fast");
  EXPECT_EQ(o.Number("scale", 1.0), 0.5);
  EXPECT_EQ(o.Number("missing", 0.25), 0.25);
  EXPECT_EQ(o.String("missing", "none"), "none");
  EXPECT_EQ(o.Strings("position"), std::vector<std::string>{"x"});  // a scalar is one item
  EXPECT_TRUE(o.Strings("missing").empty());
  EXPECT_EQ(o.Line("box"), 9u);
  EXPECT_EQ(o.Line("missing"), 6u);
  const auto bodies = o.Maps("bodies");
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(bodies[0].path(), "view.scene.bodies[0]");
  EXPECT_EQ(bodies[0].Strings("angle"), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(bodies[1].Line("x"), 14u);
}

TEST(SceneOptions, ErrorsNameFileLineAndKey) {
  const SceneOptions o = Options();
  const auto number = ExpectError([&] { o.Number("trail", 500); });
  EXPECT_EQ(number.file(), "case.yaml");
  EXPECT_EQ(number.line(), 7u);
  EXPECT_EQ(number.symbol(), "view.scene.trail");
  EXPECT_NE(std::string(number.what())
                .find("case.yaml:7: 'view.scene.trail': expected a finite "
                      "number, found \"fast\""),
            std::string::npos)
      << number.what();
  const auto item = ExpectError([&] { o.Numbers("box"); });
  EXPECT_EQ(item.line(), 9u);
  EXPECT_EQ(item.symbol(), "view.scene.box[1]");
  EXPECT_NE(std::string(item.what()).find("\"abc\""), std::string::npos) << item.what();
  const auto text = ExpectError([&] { o.String("label"); });
  EXPECT_EQ(text.line(), 10u);
  EXPECT_EQ(text.symbol(), "view.scene.label");
  EXPECT_NE(std::string(text.what()).find("expected a text value"), std::string::npos);
  EXPECT_EQ(ExpectError([&] { o.Numbers("scale"); }).symbol(), "view.scene.scale");
  EXPECT_EQ(ExpectError([&] { o.Maps("scale"); }).symbol(), "view.scene.scale");
  EXPECT_EQ(ExpectError([&] { o.Maps("box"); }).symbol(), "view.scene.box[0]");
  EXPECT_EQ(ExpectError([&] { o.Strings("bodies"); }).symbol(), "view.scene.bodies[0]");
  const auto failed = ExpectError([&] { o.Fail("scale", "must be small"); });
  EXPECT_EQ(failed.line(), 8u);
  EXPECT_NE(std::string(failed.what()).find("'view.scene.scale': must be small"),
            std::string::npos);
}

TEST(SceneOptions, CheckKeysNamesTheFirstUnknownKey) {
  const SceneOptions o = Options();
  EXPECT_NO_THROW(o.CheckKeys({"trail", "scale", "box", "label", "position", "bodies"}));
  const auto top = ExpectError([&] { o.CheckKeys({"trail", "scale", "bodies"}); });
  EXPECT_EQ(top.symbol(), "view.scene.box");
  EXPECT_EQ(top.line(), 9u);
  EXPECT_NE(std::string(top.what()).find("unknown key"), std::string::npos);
  const auto bodies = o.Maps("bodies");
  EXPECT_NO_THROW(bodies[0].CheckKeys({"x", "y", "angle"}));
  const auto nested = ExpectError([&] { bodies[1].CheckKeys({"x", "y", "angle"}); });
  EXPECT_EQ(nested.file(), "case.yaml");
  EXPECT_EQ(nested.line(), 14u);
  EXPECT_EQ(nested.symbol(), "view.scene.bodies[1].bogus");
}

TEST(SceneOptions, InMemoryOptionsAndEquality) {
  SceneOptions o;
  EXPECT_FALSE(o.Has("trail"));
  o.Set("trail", OptionValue::Scalar("200"));
  o.Set("box", OptionValue::List({OptionValue::Scalar("1"), OptionValue::Scalar("2")}));
  o.Set("trail", OptionValue::Scalar("300"));
  EXPECT_EQ(o.value().entries().size(), 2u);
  EXPECT_EQ(o.Number("trail", 0), 300.0);
  EXPECT_EQ(o.Numbers("box"), (std::vector<double>{1.0, 2.0}));
  const auto e = ExpectError([&] { o.String("box"); });
  EXPECT_EQ(e.line(), 0u);
  EXPECT_EQ(e.symbol(), "view.scene.box");
  // Lines do not take part in equality; kinds, texts and order do.
  EXPECT_TRUE(OptionValue::Scalar("a", 3) == OptionValue::Scalar("a", 7));
  EXPECT_FALSE(OptionValue::Scalar("a") == OptionValue::Scalar("b"));
  EXPECT_FALSE(OptionValue::Scalar("") == OptionValue::List({}));
  EXPECT_FALSE(OptionValue::List({}) == OptionValue::Map({}));
  OptionValue scalar = OptionValue::Scalar("x");
  scalar.Set("k", OptionValue::Scalar("v"));  // becomes a map
  EXPECT_EQ(scalar.kind(), OptionValue::Kind::kMap);
  ASSERT_NE(scalar.Find("k"), nullptr);
  EXPECT_EQ(scalar.Find("k")->text(), "v");
}

TEST(SceneOptions, EveryShippedSceneRoundTripsThroughSaveAndLoad) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourcePath("scenarios"))) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    const Scenario s = LoadScenario(entry.path().string());
    const std::string saved = SaveScenarioToString(s);
    const Scenario back = ParseScenario(saved, "roundtrip.yaml");
    EXPECT_EQ(back.scene.type, s.scene.type);
    EXPECT_TRUE(back.scene.options.value() == s.scene.options.value()) << saved;
    EXPECT_FALSE(s.scene.options.value().entries().empty());
    EXPECT_EQ(SaveScenarioToString(back), saved);
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

// The scenario browser shows resources/thumbnails/<name>.png through the Qt resource file: every
// shipped scenario has its picture there, listed (two were made but never listed, and three new
// scenarios had none).
TEST(SceneOptions, EveryShippedScenarioHasAThumbnailInTheResources) {
  std::ifstream in(testing::SourcePath("resources/dirac_studio.qrc"));
  const std::string qrc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(qrc.empty());
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourcePath("scenarios"))) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = "thumbnails/" + entry.path().stem().string() + ".png";
    EXPECT_TRUE(std::filesystem::is_regular_file(testing::SourcePath("resources/" + name))) << name;
    EXPECT_NE(qrc.find("<file>" + name + "</file>"), std::string::npos) << name << " not listed";
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace dirac
