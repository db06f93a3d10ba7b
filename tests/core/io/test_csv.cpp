// CSV export and import (core/src/io/csv.cpp): atomic, full precision, errors naming the line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "dirac/csv.hpp"
#include "dirac/error.hpp"

namespace dirac {
namespace {

namespace fs = std::filesystem;

fs::path TempDir() {
  fs::path dir = fs::temp_directory_path() / ("dirac-csv-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

TEST(Csv, RoundTripKeepsFullPrecisionAndLeavesNoTemporary) {
  Trajectory tr({"t", "x", "mu"});
  const double rows[2][3] = {{0.0, 0.1, 1.0 / 3.0}, {0.5, -2.5e-300, 6.02214076e23}};
  for (const auto& row : rows) tr.AppendRow(row);
  const fs::path dir = TempDir();
  const fs::path path = dir / "out.csv";
  WriteCsv(tr, path.string());
  const Trajectory back = ReadCsv(path.string());
  EXPECT_EQ(back.columns(), tr.columns());
  ASSERT_EQ(back.num_rows(), 2u);
  for (std::size_t r = 0; r < 2; ++r)
    for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(back.at(r, c), tr.at(r, c));  // bit-exact
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) files += entry.is_regular_file();
  EXPECT_EQ(files, 1u);
  fs::remove_all(dir);
}

TEST(Csv, UnwritableDestinationThrowsAndLeavesNothing) {
  Trajectory tr({"t"});
  const double zero = 0.0;
  tr.AppendRow(&zero);
  EXPECT_THROW(WriteCsv(tr, "/nonexistent-dir/x.csv"), IoError);
}

TEST(Csv, MalformedInputNamesTheLine) {
  const fs::path dir = TempDir();
  const fs::path path = dir / "bad.csv";
  std::ofstream(path) << "t,x\n0,1\n0.5,oops\n";
  try {
    ReadCsv(path.string());
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv:3"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dirac
