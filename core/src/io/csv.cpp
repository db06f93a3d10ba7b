#include "dirac/csv.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>

#include "dirac/error.hpp"
#include "io/atomic_file.hpp"

namespace dirac {

struct CsvWriter::Impl {
  std::unique_ptr<io::AtomicFile> file;  // null for standard output
  std::unique_ptr<io::CheckedOutput> stdout_output;
  std::string destination;
  io::CheckedOutput& output() { return file ? file->output() : *stdout_output; }
};

CsvWriter::CsvWriter() : impl_(std::make_unique<Impl>()) {}

CsvWriter::CsvWriter(const std::string& path) : CsvWriter() {
  impl_->file = std::make_unique<io::AtomicFile>(path);
  impl_->destination = path;
}

CsvWriter CsvWriter::ToStandardOutput() {
  CsvWriter writer;
  writer.impl_->destination = "standard output";
  writer.impl_->stdout_output = std::make_unique<io::CheckedOutput>(1, "standard output");
  return writer;
}

CsvWriter::CsvWriter(CsvWriter&&) noexcept = default;
CsvWriter::~CsvWriter() = default;

const std::string& CsvWriter::destination() const { return impl_->destination; }

void CsvWriter::WriteHeader(const std::vector<std::string>& columns) {
  io::CheckedOutput& out = impl_->output();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c) out.Write(',');
    out.Write(columns[c]);
  }
  out.Write('\n');
}

void CsvWriter::WriteComment(const std::string& text) {
  io::CheckedOutput& out = impl_->output();
  out.Write("# ");
  out.Write(text);
  out.Write('\n');
}

void CsvWriter::WriteRow(const double* values, std::size_t count) {
  io::CheckedOutput& out = impl_->output();
  char buffer[32];
  for (std::size_t c = 0; c < count; ++c) {
    // The shortest text that reads back as the same double (std::to_chars without a precision:
    // 0.03, not %.17g's 0.029999999999999999), as the scenario writer writes numbers; locale
    // free.
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, values[c]).ptr;
    if (c) out.Write(',');
    out.Write(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
  }
  out.Write('\n');
}

void CsvWriter::Finish(bool sync) {
  if (impl_->file)
    impl_->file->Commit(sync);
  else
    impl_->stdout_output->Flush();
}

void RemovePendingTemporaryFiles() noexcept { io::RemoveRegisteredTemporaries(); }

void WriteCsv(const Trajectory& trajectory, const std::string& path) {
  WriteCsv(trajectory, path, {});
}

void WriteCsv(const Trajectory& trajectory, const std::string& path,
              const std::vector<std::string>& comments) {
  CsvWriter writer(path);
  for (const std::string& comment : comments) writer.WriteComment(comment);
  writer.WriteHeader(trajectory.columns());
  for (std::size_t r = 0; r < trajectory.num_rows(); ++r)
    writer.WriteRow(trajectory.row(r), trajectory.num_columns());
  writer.Finish();
}

void WriteCsvUnsynced(const Trajectory& trajectory, const std::string& path) {
  CsvWriter writer(path);
  writer.WriteHeader(trajectory.columns());
  for (std::size_t r = 0; r < trajectory.num_rows(); ++r)
    writer.WriteRow(trajectory.row(r), trajectory.num_columns());
  writer.Finish(false);
}

void SyncFileSystem(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot sync '" + path + "': " + std::strerror(errno));
  const int result = ::syncfs(fd);
  const int error = errno;
  ::close(fd);
  if (result != 0) throw IoError("cannot sync '" + path + "': " + std::strerror(error));
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
