// base/ on its own (core/src/base/): the foreign-exception translation of foreign_errors.hpp
// (which exception passes unchanged, which is renamed with the file, which becomes a ModelError
// naming the stage), the ScenarioError message form, and Trajectory's streaming, time lookup and
// the memory bound RequireTrajectoryFits.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/foreign_errors.hpp"
#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "dirac/trajectory.hpp"

namespace dirac {
namespace {

// Throws `e`, translates it as a derivation entry point does and returns what came out.
template <typename Thrown>
std::exception_ptr Translated(const Thrown& e, const std::string& file = "model.yaml") {
  try {
    try {
      throw e;
    } catch (...) {
      base::RethrowNamingFile(file, "compiling the residual");
    }
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

template <typename Expected>
std::string MessageIf(std::exception_ptr p) {
  try {
    std::rethrow_exception(p);
  } catch (const Expected& e) {
    return e.what();
  } catch (...) {
  }
  return "<another type>";
}

TEST(ForeignErrors, NamingFileAddsTheFileOnceAndOnlyWhenGiven) {
  EXPECT_EQ(base::NamingFile("a.yaml", "singular matrix"), "a.yaml: singular matrix");
  EXPECT_EQ(base::NamingFile("a.yaml", "a.yaml:3: bad"), "a.yaml:3: bad");
  EXPECT_EQ(base::NamingFile("", "singular matrix"), "singular matrix");
}

TEST(ForeignErrors, GinacDomainErrorsBecomeModelErrorsNamingFileAndStage) {
  // What GiNaC throws for 0^x or 1/(x - x).
  const auto p = Translated(std::domain_error("power::eval(): division by zero"));
  EXPECT_EQ(MessageIf<ModelError>(p),
            "model.yaml: while compiling the residual: power::eval(): division by zero (the "
            "scenario's expressions lead to an undefined or unrepresentable value)");
  EXPECT_EQ(MessageIf<ModelError>(Translated(std::out_of_range("vector::_M_range_check")))
                .find("model.yaml: while compiling the residual: vector::_M_range_check"),
            0u);
}

TEST(ForeignErrors, DiracErrorsKeepTheirTypeAndGainTheFile) {
  EXPECT_EQ(MessageIf<ModelError>(Translated(ModelError("W is singular"))),
            "model.yaml: W is singular");
  EXPECT_EQ(MessageIf<NumericalError>(Translated(NumericalError("IDAS failed at t = 2"))),
            "model.yaml: IDAS failed at t = 2");
  EXPECT_EQ(MessageIf<IoError>(Translated(IoError("cannot write 'x.csv'"))),
            "model.yaml: cannot write 'x.csv'");
  // The plain root stays the root (not a ModelError).
  EXPECT_EQ(MessageIf<ModelError>(Translated(Error("plain"))), "<another type>");
  EXPECT_EQ(MessageIf<Error>(Translated(Error("plain"))), "model.yaml: plain");
  // A message that names the file already is left as it is.
  EXPECT_EQ(MessageIf<ModelError>(Translated(ModelError("model.yaml:7: bad"))),
            "model.yaml:7: bad");
}

TEST(ForeignErrors, ScenarioErrorsCancellationAndMemoryPassUnchanged) {
  const ScenarioError scenario_error("s.yaml", 12, "lagrangian", "not real");
  const std::string what = scenario_error.what();
  EXPECT_EQ(MessageIf<ScenarioError>(Translated(scenario_error, "other.yaml")), what);
  EXPECT_NE(what.find("s.yaml:12"), std::string::npos) << what;
  EXPECT_NE(what.find("lagrangian"), std::string::npos) << what;
  EXPECT_EQ(MessageIf<std::bad_alloc>(Translated(std::bad_alloc())), std::bad_alloc().what());
  bool cancelled = false;
  try {
    std::rethrow_exception(Translated(DerivationCancelled()));
  } catch (const DerivationCancelled&) {
    cancelled = true;
  } catch (...) {
  }
  EXPECT_TRUE(cancelled);
}

TEST(Trajectory, StreamingHandsEveryRowToTheSinkAndKeepsOnlyTheLast) {
  Trajectory tr({"t", "x"});
  std::vector<double> seen;
  tr.StreamTo([&](const std::vector<std::string>& columns, const double* row) {
    ASSERT_EQ(columns.size(), 2u);
    seen.push_back(row[0]);
    seen.push_back(row[1]);
  });
  EXPECT_TRUE(tr.empty());
  for (int k = 0; k < 5; ++k) {
    const double row[2] = {0.5 * k, 1.0 * k * k};
    tr.AppendRow(row);
  }
  EXPECT_EQ(tr.rows_appended(), 5u);
  EXPECT_EQ(tr.num_rows(), 1u);
  EXPECT_EQ(tr.at(0, 1), 16.0);
  ASSERT_EQ(seen.size(), 10u);
  EXPECT_EQ(seen[6], 1.5);
  EXPECT_EQ(seen[7], 9.0);
}

TEST(Trajectory, ColumnsRowsAtTimesAndAppend) {
  Trajectory a({"t", "q"}), b({"t", "q"});
  for (int k = 0; k < 4; ++k) {
    const double row[2] = {0.25 * k, -1.0 * k};
    a.AppendRow(row);
  }
  const double later[2] = {1.0, -4.0};
  b.AppendRow(later);
  a.Append(b);
  EXPECT_EQ(a.num_rows(), 5u);
  EXPECT_EQ(a.Column("q"), (std::vector<double>{0.0, -1.0, -2.0, -3.0, -4.0}));
  EXPECT_EQ(a.RowAtTime(0.6), 2u);   // t = 0.5 <= 0.6 < 0.75
  EXPECT_EQ(a.RowAtTime(0.75), 3u);  // exact sample
  EXPECT_EQ(a.RowAtTime(-1.0), 0u);
  EXPECT_EQ(a.ColumnIndex("q"), 1u);
  EXPECT_FALSE(a.FindColumn("p").has_value());
  EXPECT_THROW(a.ColumnIndex("p"), Error);
  EXPECT_THROW(a.Append(Trajectory({"t", "p"})), Error);
}

TEST(Trajectory, MemoryBoundRefusesBeforeAllocating) {
  // 256 MiB / (8 bytes x 4 columns) = 8 388 608 rows fit; one more does not.
  constexpr double kFitting = static_cast<double>(kMaxTrajectoryBytes / (8 * 4));
  EXPECT_NO_THROW(RequireTrajectoryFits(kFitting, 4, "run.yaml"));
  try {
    RequireTrajectoryFits(kFitting + 1, 4, "run.yaml");
    FAIL() << "a trajectory above the bound was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("run.yaml"), std::string::npos) << e.what();
  }
  EXPECT_THROW(RequireTrajectoryFits(1e300, 2, "huge.yaml"), Error);
}

}  // namespace
}  // namespace dirac
