// MergeSweepShards: shard tables joined into the table of the whole sweep.
#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <system_error>

#include "dirac/error.hpp"
#include "dirac/sweep.hpp"
#include "io/atomic_file.hpp"
#include "sweep/summary_table.hpp"

namespace dirac {

namespace {

namespace fs = std::filesystem;

struct ShardTable {
  std::string path;
  std::size_t index = 0, count = 0;
};

const std::regex& ShardName() {
  static const std::regex pattern(R"(summary-shard-([0-9]+)-of-([0-9]+)\.csv)");
  return pattern;
}

bool ParseShardName(const fs::path& path, ShardTable& table) {
  std::smatch m;
  const std::string name = path.filename().string();
  if (!std::regex_match(name, m, ShardName())) return false;
  table.path = path.string();
  table.index = std::stoul(m[1].str());
  table.count = std::stoul(m[2].str());
  return true;
}

std::vector<ShardTable> FindTables(const std::vector<std::string>& inputs) {
  std::vector<ShardTable> tables;
  for (const auto& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      std::vector<fs::path> entries;
      for (const auto& entry : fs::directory_iterator(input, ec)) entries.push_back(entry.path());
      if (ec) throw IoError("cannot list '" + input + "': " + ec.message());
      std::sort(entries.begin(), entries.end());
      const std::size_t before = tables.size();
      for (const auto& path : entries) {
        ShardTable table;
        if (ParseShardName(path, table)) tables.push_back(table);
      }
      if (tables.size() == before)
        throw IoError("'" + input + "': no shard table (summary-shard-K-of-N.csv) in this folder");
    } else if (fs::is_regular_file(input, ec)) {
      ShardTable table;
      if (!ParseShardName(input, table))
        throw IoError("'" + input + "' is not a shard table (summary-shard-K-of-N.csv)");
      tables.push_back(table);
    } else {
      throw IoError("'" + input + "': no such folder or file");
    }
  }
  return tables;
}

std::string At(const std::string& path, std::size_t line) {
  return path + ":" + std::to_string(line) + ": ";
}

}  // namespace

SweepMergeResult MergeSweepShards(const std::vector<std::string>& inputs,
                                  const std::string& out_dir) {
  if (inputs.empty()) throw IoError("sweep --merge: no shard folder or table given");
  const std::vector<ShardTable> tables = FindTables(inputs);
  const std::size_t count = tables.front().count;
  std::vector<const ShardTable*> by_index(count + 1, nullptr);
  for (const auto& t : tables) {
    if (t.count != count)
      throw IoError(t.path + ": shard of " + std::to_string(t.count) + ", but " +
                    tables.front().path + " is a shard of " + std::to_string(count));
    if (t.index < 1 || t.index > count)
      throw IoError(t.path + ": shard " + std::to_string(t.index) + " is not in 1.." +
                    std::to_string(count));
    if (by_index[t.index] && fs::path(by_index[t.index]->path) != fs::path(t.path))
      throw IoError(t.path + ": shard " + std::to_string(t.index) + " of " + std::to_string(count) +
                    " given twice (also " + by_index[t.index]->path + ")");
    by_index[t.index] = &t;
  }
  for (std::size_t k = 1; k <= count; ++k)
    if (!by_index[k])
      throw IoError("sweep --merge: shard " + std::to_string(k) + " of " + std::to_string(count) +
                    " (summary-shard-" + std::to_string(k) + "-of-" + std::to_string(count) +
                    ".csv) is missing");

  std::string header, header_source;
  std::map<std::size_t, std::string> rows;
  for (std::size_t k = 1; k <= count; ++k) {
    const std::string& path = by_index[k]->path;
    const std::vector<sweep::Record> records = sweep::ReadRecords(path);
    if (records.empty() || records.front().cells.empty() || records.front().cells[0] != "run")
      throw IoError(At(path, 1) + "not a sweep table: the header must start with 'run'");
    const sweep::Record& head = records.front();
    if (header_source.empty()) {
      header = head.text;
      header_source = path;
    } else if (head.text != header) {
      throw IoError(At(path, 1) + "its header differs from that of " + header_source +
                    ": the shards are of different sweeps");
    }
    for (std::size_t r = 1; r < records.size(); ++r) {
      const sweep::Record& rec = records[r];
      if (rec.cells.size() != head.cells.size())
        throw IoError(At(path, rec.line) + "expected " + std::to_string(head.cells.size()) +
                      " fields, found " + std::to_string(rec.cells.size()));
      const std::string& cell = rec.cells[0];
      if (cell.empty() || cell.find_first_not_of("0123456789") != std::string::npos)
        throw IoError(At(path, rec.line) + "run index '" + cell + "' is not a whole number");
      const std::size_t run = std::stoul(cell);
      if (run % count != k - 1)
        throw IoError(At(path, rec.line) + "run " + cell + " does not belong to shard " +
                      std::to_string(k) + " of " + std::to_string(count));
      if (!rows.emplace(run, rec.text).second)
        throw IoError(At(path, rec.line) + "run " + cell + " appears twice");
    }
  }
  // Every run below the largest must be present. (An interrupted shard writes its table under
  // another name, so a complete set of shard tables cannot lack the last runs.)
  std::size_t expected = 0;
  for (const auto& [run, text] : rows) {
    if (run != expected)
      throw IoError("sweep --merge: run " + std::to_string(expected) + " (shard " +
                    std::to_string(expected % count + 1) + " of " + std::to_string(count) + ", " +
                    by_index[expected % count + 1]->path +
                    ") is missing: was that shard interrupted?");
    ++expected;
  }

  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir))
    throw IoError("cannot create the folder '" + out_dir + "'" +
                  (ec ? ": " + ec.message() : std::string()));
  SweepMergeResult result;
  result.shards = count;
  result.runs = rows.size();
  result.summary_path = (fs::path(out_dir) / "summary.csv").string();
  io::AtomicFile file(result.summary_path);
  file.stream() << header << '\n';
  for (const auto& [run, text] : rows) file.stream() << text << '\n';
  file.Commit();
  return result;
}

}  // namespace dirac
