#include "sweep/summary_table.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "dirac/error.hpp"

namespace dirac::sweep {

std::string FormatNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

std::string QuoteCell(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string JoinCells(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    if (c) line += ',';
    line += cells[c];
  }
  return line;
}

namespace {

// Reads one cell starting at `pos`; stops at the ',' or '\n' that ends it, or at the end.
std::string ReadCell(const std::string& path, const std::string& text, std::size_t& pos,
                     std::size_t& line, std::size_t record_line) {
  std::string cell;
  if (pos < text.size() && text[pos] == '"') {
    ++pos;
    for (;;) {
      if (pos >= text.size())
        throw IoError(path + ":" + std::to_string(record_line) + ": unclosed quote");
      const char c = text[pos++];
      if (c == '"') {
        if (pos < text.size() && text[pos] == '"') {
          cell += '"';
          ++pos;
          continue;
        }
        break;
      }
      if (c == '\n') ++line;
      cell += c;
    }
    if (pos < text.size() && text[pos] != ',' && text[pos] != '\n')
      throw IoError(path + ":" + std::to_string(line) + ": text after a closing quote");
    return cell;
  }
  while (pos < text.size() && text[pos] != ',' && text[pos] != '\n') cell += text[pos++];
  return cell;
}

}  // namespace

std::vector<Record> ReadRecords(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot read '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();

  std::vector<Record> records;
  std::size_t line = 1, pos = 0;
  while (pos < text.size()) {
    Record record;
    record.line = line;
    const std::size_t start = pos;
    record.cells.push_back(ReadCell(path, text, pos, line, record.line));
    while (pos < text.size() && text[pos] == ',') {
      ++pos;
      record.cells.push_back(ReadCell(path, text, pos, line, record.line));
    }
    record.text = text.substr(start, pos - start);
    if (pos < text.size()) {  // the '\n' ending the record
      ++pos;
      ++line;
    }
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace dirac::sweep
