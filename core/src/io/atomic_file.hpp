#pragma once
// Internal: a file written through a temporary beside it and renamed into place on Commit(), so
// a reader never sees half a file and a failure leaves the destination untouched.

#include <fstream>
#include <string>

namespace dirac::io {

class AtomicFile {
 public:
  /// Opens "<path>.tmp.<pid>" for writing. Throws IoError naming `path` if it cannot.
  explicit AtomicFile(std::string path);
  /// Removes the temporary unless Commit() succeeded.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ofstream& stream() { return out_; }
  /// Flushes, checks for write errors and renames onto the destination. Throws IoError.
  void Commit();

 private:
  std::string path_, temp_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace dirac::io
