#pragma once
// Internal: a file written through a temporary beside it and renamed into place on Commit(), so
// a reader never sees half a file and a failure leaves the destination untouched.
//
// Every write is checked (short writes retried, errors thrown as IoError naming the
// destination); the temporary gets the destination's permission bits; a destination that exists
// and is not a regular file (symbolic link, device node, directory, pipe) is refused, as is one
// the user may not write. While a temporary exists its path is registered, and SIGINT, SIGTERM
// and SIGHUP (where their action is the default one) unlink it before the process dies.

#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace dirac::io {

/// Writes all `size` bytes to `fd`, retrying short writes and EINTR. Throws IoError
/// "cannot write 'NAME': <reason>" on failure (ENOSPC, EFBIG from a file-size limit, EPIPE...).
void WriteAll(int fd, const char* data, std::size_t size, const std::string& name);

/// Unlinks every registered temporary. Async-signal-safe: for signal handlers and a watchdog
/// about to _exit.
void RemoveRegisteredTemporaries() noexcept;

/// An output buffer over a file descriptor whose every flush is checked with WriteAll.
class CheckedOutput {
 public:
  /// `name` is used in messages ("standard output" or a path).
  CheckedOutput(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  CheckedOutput(const CheckedOutput&) = delete;
  CheckedOutput& operator=(const CheckedOutput&) = delete;
  ~CheckedOutput() = default;  // unflushed bytes are dropped: call Flush()

  void Write(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kFlushAt) Flush();
  }
  void Write(char c) {
    buffer_.push_back(c);
    if (buffer_.size() >= kFlushAt) Flush();
  }
  /// Writes the buffer out. Throws IoError.
  void Flush();
  const std::string& name() const { return name_; }
  /// Writes to `fd` from now on.
  void Reset(int fd) { fd_ = fd; }

 private:
  static constexpr std::size_t kFlushAt = 1 << 16;
  int fd_;
  std::string name_;
  std::string buffer_;
};

class AtomicFile {
 public:
  /// Creates "<path>.tmp.<pid>.<n>" exclusively, with the permission bits of `path` if it exists
  /// (else 0666 minus the umask). Throws IoError naming `path` if it cannot, or if `path` exists
  /// and is not a regular file or is not writable.
  explicit AtomicFile(std::string path);
  /// Removes the temporary unless Commit() succeeded.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// The checked buffer writing into the temporary.
  CheckedOutput& output() { return output_; }
  /// Text appended with output().Write(...).
  void Write(std::string_view text) { output_.Write(text); }
  /// Flushes, syncs (unless `sync` is false: the caller syncs the file system later, e.g. a
  /// sweep once before its summary table) and renames onto the destination; checks every step.
  /// Throws IoError.
  void Commit(bool sync = true);

 private:
  std::string path_, temp_;
  int fd_ = -1;
  int slot_ = -1;
  CheckedOutput output_;
  bool committed_ = false;
};

}  // namespace dirac::io
