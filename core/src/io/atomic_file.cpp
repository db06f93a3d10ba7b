#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "dirac/error.hpp"

namespace dirac::io {
namespace {

// The registry of temporaries, readable from a signal handler: fixed slots, each published by
// an atomic flag after its path is written.
constexpr int kSlots = 32;
constexpr std::size_t kPathBytes = 4096;
char registered_paths[kSlots][kPathBytes];
std::atomic<int> slot_state[kSlots];  // 0 free, 1 being written, 2 registered
static_assert(std::atomic<int>::is_always_lock_free, "the registry is read in signal handlers");

int Register(const std::string& path) {
  if (path.size() >= kPathBytes) return -1;
  for (int k = 0; k < kSlots; ++k) {
    int expected = 0;
    if (slot_state[k].compare_exchange_strong(expected, 1)) {
      std::memcpy(registered_paths[k], path.c_str(), path.size() + 1);
      slot_state[k].store(2, std::memory_order_release);
      return k;
    }
  }
  return -1;  // more temporaries at once than slots: written, just not removed on a signal
}

void Unregister(int slot) {
  if (slot >= 0) slot_state[slot].store(0, std::memory_order_release);
}

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void RemoveTemporariesAndDie(int signal_number) {
  RemoveRegisteredTemporaries();
  // Die of the same signal, with its default action, so the parent sees how we ended.
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal_number, &action, nullptr);
  raise(signal_number);
}

// Installs the handler for each signal whose action is still the default (a program with its
// own handlers keeps them).
void InstallSignalHandlersOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int signal_number : kSignals) {
      struct sigaction current {};
      if (sigaction(signal_number, nullptr, &current) != 0) continue;
      if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO)) continue;
      struct sigaction action {};
      action.sa_handler = RemoveTemporariesAndDie;
      sigemptyset(&action.sa_mask);
      sigaction(signal_number, &action, nullptr);
    }
  });
}

std::string Reason(int error) { return std::strerror(error); }

const char* KindOf(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a pipe";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::atomic<unsigned> temp_counter{0};

}  // namespace

void RemoveRegisteredTemporaries() noexcept {
  for (int k = 0; k < kSlots; ++k)
    if (slot_state[k].load(std::memory_order_acquire) == 2) ::unlink(registered_paths[k]);
}

void WriteAll(int fd, const char* data, std::size_t size, const std::string& name) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      throw IoError("cannot write '" + name + "': " + Reason(errno));
    }
    if (written == 0) throw IoError("cannot write '" + name + "': no progress (device full?)");
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

void CheckedOutput::Flush() {
  if (buffer_.empty()) return;
  std::string pending;
  pending.swap(buffer_);
  WriteAll(fd_, pending.data(), pending.size(), name_);
}

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)),
      temp_(path_ + ".tmp." + std::to_string(::getpid()) + "." +
            std::to_string(temp_counter.fetch_add(1))),
      output_(-1, path_) {
  mode_t mode = 0666;
  bool keep_mode = false;
  struct stat target {};
  if (::lstat(path_.c_str(), &target) == 0) {
    if (!S_ISREG(target.st_mode))
      throw IoError("cannot write '" + path_ + "': it exists and is " + KindOf(target.st_mode) +
                    "; refusing to replace it with a regular file");
    if (::access(path_.c_str(), W_OK) != 0)
      throw IoError("cannot write '" + path_ + "': it exists and is not writable (" +
                    Reason(errno) + "); refusing to replace it");
    mode = target.st_mode & 07777;
    keep_mode = true;
  }
  InstallSignalHandlersOnce();
  // Register before creating, so a signal between the two still finds (or harmlessly misses) it.
  slot_ = Register(temp_);
  fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd_ < 0) {
    const int error = errno;
    Unregister(slot_);
    throw IoError("cannot write '" + path_ + "': cannot create " + temp_ + ": " + Reason(error));
  }
  if (keep_mode && ::fchmod(fd_, mode) != 0) {
    const int error = errno;
    ::close(fd_);
    ::unlink(temp_.c_str());
    Unregister(slot_);
    throw IoError("cannot write '" + path_ + "': cannot keep its permissions: " + Reason(error));
  }
  output_.Reset(fd_);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_.c_str());
  Unregister(slot_);
}

void AtomicFile::Commit(bool sync) {
  output_.Flush();
  if (sync && ::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS)
    throw IoError("cannot write '" + path_ + "': " + Reason(errno));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw IoError("cannot write '" + path_ + "': " + Reason(errno));
  if (::rename(temp_.c_str(), path_.c_str()) != 0)
    throw IoError("cannot write '" + path_ + "': cannot rename " + temp_ + ": " + Reason(errno));
  committed_ = true;
}

}  // namespace dirac::io
