#include "cli_linearize.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_progress.hpp"
#include "dirac/csv.hpp"
#include "dirac/linearization.hpp"
#include "dirac/scenario.hpp"

namespace dirac::cli {
namespace {

// "a,b,c" (several flags joined) into names.
std::vector<std::string> Names(const std::vector<std::string>& lists) {
  std::vector<std::string> names;
  for (const auto& list : lists) {
    std::size_t pos = 0;
    for (;;) {
      const std::size_t comma = list.find(',', pos);
      const std::string name = list.substr(pos, comma == std::string::npos ? comma : comma - pos);
      if (!name.empty()) names.push_back(name);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  return names;
}

struct Vary {
  std::string name;
  double start = 0.0, stop = 0.0;
  std::size_t count = 0;
};

Vary ParseVary(const std::string& text) {
  const std::string expected = "--vary expects NAME=START:STOP:COUNT, got '" + text + "'";
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError{expected};
  const std::size_t c1 = text.find(':', eq + 1);
  const std::size_t c2 = c1 == std::string::npos ? c1 : text.find(':', c1 + 1);
  if (c2 == std::string::npos || text.find(':', c2 + 1) != std::string::npos)
    throw UsageError{expected};
  Vary v;
  v.name = text.substr(0, eq);
  v.start = ParseNumber("--vary " + v.name, text.substr(eq + 1, c1 - eq - 1));
  v.stop = ParseNumber("--vary " + v.name, text.substr(c1 + 1, c2 - c1 - 1));
  const std::string count = text.substr(c2 + 1);
  if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos ||
      count.size() > 9)
    throw UsageError{"--vary " + v.name + " COUNT expects a whole number, got '" + count + "'"};
  v.count = std::stoul(count);
  if (v.count < 2) throw UsageError{"--vary " + v.name + ": COUNT must be at least 2"};
  return v;
}

void WriteSweepCsv(const StabilitySweep& sweep, const std::string& path) {
  CsvWriter writer(path);
  std::vector<std::string> header{sweep.parameter};
  for (Eigen::Index j = 0; j < sweep.eigenvalues.cols(); ++j) {
    header.push_back("re_" + std::to_string(j + 1));
    header.push_back("im_" + std::to_string(j + 1));
  }
  writer.WriteHeader(header);
  std::vector<double> row(header.size());
  for (Eigen::Index i = 0; i < sweep.eigenvalues.rows(); ++i) {
    row[0] = sweep.values[static_cast<std::size_t>(i)];
    for (Eigen::Index j = 0; j < sweep.eigenvalues.cols(); ++j) {
      row[static_cast<std::size_t>(1 + 2 * j)] = sweep.eigenvalues(i, j).real();
      row[static_cast<std::size_t>(2 + 2 * j)] = sweep.eigenvalues(i, j).imag();
    }
    writer.WriteRow(row.data(), row.size());
  }
  writer.Finish();
}

std::string SweepJson(const StabilitySweep& sweep) {
  auto full = [](double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", v);
    return std::string(text);
  };
  std::string out = "{\n  \"parameter\": \"" + sweep.parameter + "\",\n  \"critical\": [";
  for (std::size_t i = 0; i < sweep.critical.size(); ++i) {
    const auto& c = sweep.critical[i];
    out += std::string(i ? ", " : "") + "{\"value\": " + full(c.value) +
           ", \"branch\": " + std::to_string(c.branch + 1) +
           ", \"oscillatory\": " + (c.oscillatory ? "true" : "false") +
           ", \"stabilizing\": " + (c.stabilizing ? "true" : "false") +
           ", \"im\": " + full(c.eigenvalue.imag()) + "}";
  }
  out += "],\n  \"stable_intervals\": [";
  for (std::size_t i = 0; i < sweep.stable_intervals.size(); ++i)
    out += std::string(i ? ", " : "") + "[" + full(sweep.stable_intervals[i].first) + ", " +
           full(sweep.stable_intervals[i].second) + "]";
  out += "]\n}\n";
  return out;
}

// --along RUN.csv: everything computed first, then written (the file atomically).
int LinearizeAlong(const Options& o, const Linearizer& linearizer) {
  SetStage("reading the run");
  const Trajectory run = ReadCsv(o.along);
  SetStage("linearizing along the run");
  const TrajectoryLinearization along = linearizer.LinearizeAlong(run, o.along);
  SetStage("writing");
  if (!o.csv.empty()) {
    CsvWriter writer(o.csv);
    WriteTrajectoryLinearization(along, writer);
    writer.Finish();
  }
  if (o.json) {
    const std::string text = TrajectoryLinearizationJson(along);
    std::fputs(text.c_str(), stdout);
  } else if (o.csv.empty()) {
    std::fflush(stdout);
    CsvWriter writer = CsvWriter::ToStandardOutput();
    WriteTrajectoryLinearization(along, writer);
    writer.Finish();
  }
  return 0;
}

}  // namespace

int Linearize(const Options& o) {
  if (o.vary.size() > 1) throw UsageError{"linearize sweeps one parameter: give one --vary"};
  if (!o.along.empty() && (!o.vary.empty() || o.find))
    throw UsageError{"--along linearizes along a run: not with --vary or --find"};
  if (!o.csv.empty() && o.vary.empty() && o.along.empty())
    throw UsageError{
        "linearize writes CSV only for a sweep (--vary NAME=START:STOP:COUNT) or a run "
        "(--along RUN.csv)"};
  SetStage("reading the scenario");
  Scenario scenario = LoadScenario(o.scenario);
  ApplyOverrides(scenario, o.overrides);
  if (!o.formulation.empty()) SetFormulation(scenario, o.formulation);
  LinearizationOptions options;
  options.ignorable = Names(o.ignorable);
  options.speeds = Names(o.speeds);
  options.find = o.find;
  SetStage("deriving the equations");
  const auto linearizer = Linearizer::Derive(scenario, options);
  if (!o.along.empty()) return LinearizeAlong(o, *linearizer);
  SetStage("linearizing");
  if (o.vary.empty()) {
    const Linearization lin = linearizer->Linearize();
    const std::string text = o.json ? LinearizationJson(lin) : LinearizationText(lin);
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  const Vary vary = ParseVary(o.vary.front());
  const StabilitySweep sweep = linearizer->Sweep(vary.name, vary.start, vary.stop, vary.count);
  if (!o.csv.empty()) {
    SetStage("writing");
    WriteSweepCsv(sweep, o.csv);
  }
  const std::string text = o.json ? SweepJson(sweep) : StabilitySweepText(sweep);
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace dirac::cli
