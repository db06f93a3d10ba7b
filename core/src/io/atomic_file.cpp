#include "io/atomic_file.hpp"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "dirac/error.hpp"

namespace dirac::io {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), temp_(path_ + ".tmp." + std::to_string(::getpid())) {
  out_.open(temp_, std::ios::out | std::ios::trunc);
  if (!out_) throw IoError("cannot write '" + path_ + "': cannot create " + temp_);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  out_.close();
  std::error_code ignored;
  std::filesystem::remove(temp_, ignored);
}

void AtomicFile::Commit() {
  out_.flush();
  if (!out_) throw IoError("cannot write '" + path_ + "': write failed (disk full?)");
  out_.close();
  std::error_code ec;
  std::filesystem::rename(temp_, path_, ec);
  if (ec) throw IoError("cannot write '" + path_ + "': " + ec.message());
  committed_ = true;
}

}  // namespace dirac::io
