#include "dirac/csv.hpp"

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "dirac/error.hpp"
#include "io/atomic_file.hpp"

namespace dirac {

void WriteCsv(const Trajectory& trajectory, const std::string& path) {
  WriteCsv(trajectory, path, {});
}

void WriteCsv(const Trajectory& trajectory, const std::string& path,
              const std::vector<std::string>& comments) {
  io::AtomicFile file(path);
  std::ofstream& out = file.stream();
  for (const std::string& comment : comments) out << "# " << comment << '\n';
  const auto& columns = trajectory.columns();
  for (std::size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << columns[c];
  out << '\n';
  char buffer[32];
  for (std::size_t r = 0; r < trajectory.num_rows(); ++r) {
    const double* row = trajectory.row(r);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      std::snprintf(buffer, sizeof buffer, "%.17g", row[c]);
      if (c) out << ',';
      out << buffer;
    }
    out << '\n';
  }
  file.Commit();
}

Trajectory ReadCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw IoError("cannot read '" + path + "'");
  std::string line;
  std::size_t line_number = 1;
  if (!std::getline(in, line)) throw IoError(path + ":1: empty file, expected a header row");
  while (!line.empty() && line[0] == '#') {
    ++line_number;
    if (!std::getline(in, line))
      throw IoError(path + ":" + std::to_string(line_number) + ": expected a header row");
  }
  std::vector<std::string> columns;
  {
    std::stringstream header(line);
    std::string name;
    while (std::getline(header, name, ',')) columns.push_back(name);
  }
  Trajectory trajectory(columns);
  std::vector<double> values(columns.size());
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    std::size_t c = 0, pos = 0;
    while (pos <= line.size()) {
      const std::size_t comma = line.find(',', pos);
      const std::string cell =
          line.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (c >= values.size())
        throw IoError(path + ":" + std::to_string(line_number) + ": too many fields");
      char* end = nullptr;
      values[c] = std::strtod(cell.c_str(), &end);
      if (cell.empty() || *end != '\0')
        throw IoError(path + ":" + std::to_string(line_number) + ": not a number: '" + cell + "'");
      ++c;
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    if (c != values.size())
      throw IoError(path + ":" + std::to_string(line_number) + ": expected " +
                    std::to_string(values.size()) + " fields, found " + std::to_string(c));
    trajectory.AppendRow(values.data());
  }
  return trajectory;
}

}  // namespace dirac
