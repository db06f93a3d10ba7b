#include "symbolic/native_tapes.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>

#ifndef DIRAC_C_COMPILER
#define DIRAC_C_COMPILER "cc"
#endif

extern char** environ;

namespace dirac::symbolic {

namespace {

// Bumped whenever the generated C changes meaning, so old cache entries are not reused.
constexpr const char* kFormat = "dirac-tape-c-v3";

// A batch past this many tape instructions is compiled at -O1 (half of -O2's compile time on
// the 40-link chain; the same bits: neither level changes floating-point semantics here) ...
constexpr std::size_t kOptimizeLessFrom = 40000;
// ... and spread over one C file per this many instructions (at most kMaxFiles), compiled in
// parallel and linked.
constexpr std::size_t kInstructionsPerFile = 20000;
constexpr std::size_t kMaxFiles = 4;

// The compile flags (without -shared, -c or -o) at an optimisation level.
std::vector<std::string> CompilerFlags(const std::string& level) {
  return {"-std=c99",
          level,
          "-fPIC",
          "-ffp-contract=off",
          "-fno-fast-math",
          "-fno-builtin",
          "-fno-stack-protector"};
}

// `text` in single quotes for /bin/sh.
std::string ShellQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Two independent 64-bit hashes of the text, as 32 hex digits.
std::string Hash128(const std::string& text) {
  std::uint64_t fnv = 0xcbf29ce484222325ULL;
  std::uint64_t mix = 0x243f6a8885a308d3ULL;
  for (unsigned char c : text) {
    fnv = (fnv ^ c) * 0x100000001b3ULL;
    mix = (mix ^ c) * 0x9e3779b97f4a7c15ULL;
    mix ^= mix >> 29;
  }
  char out[33];
  std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(fnv),
                static_cast<unsigned long long>(mix));
  return out;
}

// The compiler's executable (searched in PATH when the name has no slash) and an identity
// string (resolved path, size, modification time), or false if there is none.
bool ResolveCompiler(const std::string& name, std::string& identity) {
  std::vector<std::string> candidates;
  if (name.find('/') != std::string::npos) {
    candidates.push_back(name);
  } else if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      candidates.push_back((dir.empty() ? std::string(".") : dir) + "/" + name);
  }
  for (const std::string& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) != 0) continue;
    struct stat info {};
    if (::stat(candidate.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    std::error_code ec;
    const std::string resolved = std::filesystem::canonical(candidate, ec).string();
    identity = (ec ? candidate : resolved) + " size " + std::to_string(info.st_size) + " mtime " +
               std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec);
    return true;
  }
  return false;
}

std::string ConfiguredCompiler(const NativeTapeOptions& options) {
  if (!options.compiler.empty()) return options.compiler;
  const char* env = std::getenv("DIRAC_CC");
  return env != nullptr && *env != '\0' ? env : DIRAC_C_COMPILER;
}

// Spawns argv in its own process group with stdin, stdout and stderr on /dev/null and no other
// descriptor inherited; the pid, or -1.
pid_t Spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  // A pipe of the caller (a test reading `dirac run`'s output) must not stay open in the
  // compiler, or its reader would wait for the compile.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);  // Ctrl+C in the terminal does not reach it
  pid_t pid = -1;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return spawned == 0 ? pid : -1;
}

// Waits for `pid` at most `timeout` seconds (then kills its process group); true on exit 0.
bool WaitFor(pid_t pid, double timeout, bool& timed_out) {
  timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  auto pause = std::chrono::microseconds(200);
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (done < 0 && errno != EINTR) return false;
    if (std::chrono::steady_clock::now() > deadline) {
      timed_out = true;
      ::kill(-pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return false;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
}

// Writes `text` to a new private file <dir>/<stem>.XXXXXX.c; its path, or empty.
std::string WriteTemporarySource(const std::string& dir, const std::string& stem,
                                 const std::string& text) {
  std::string path = dir + "/" + stem + ".XXXXXX.c";
  const int fd = ::mkstemps(path.data(), 2);
  if (fd < 0) return {};
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  const bool ok = ::close(fd) == 0 && written == text.size();
  if (!ok) {
    ::unlink(path.c_str());
    return {};
  }
  return path;
}

// Keeps the cache bounded: past kMaxEntries compiled entries the least recently used ones go
// (LoadCached touches an entry), and temporary files older than an hour (a compile killed
// mid-way) are removed. Runs only before a new entry is written.
constexpr std::size_t kMaxEntries = 256;
constexpr std::size_t kEntriesKept = 192;

void PruneCache(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    std::error_code time_ec;
    const auto time = fs::last_write_time(path, time_ec);
    if (time_ec) continue;
    const std::string name = path.filename().string();
    const bool temporary = name.size() > 2 && (name.ends_with(".c") || name.ends_with(".o") ||
                                               name.ends_with(".part"));
    if (temporary) {
      if (now - time > std::chrono::hours(1)) fs::remove(path, time_ec);
    } else if (name.ends_with(".so")) {
      entries.emplace_back(time, path);
    }
  }
  if (entries.size() <= kMaxEntries) return;
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 0; i + kEntriesKept < entries.size(); ++i) fs::remove(entries[i].second, ec);
}

}  // namespace

std::string DefaultTapeCacheDirectory() {
  if (const char* dir = std::getenv("DIRAC_TAPE_CACHE"); dir != nullptr && *dir != '\0') return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return std::string(xdg) + "/dirac-studio/tapes";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::string(home) + "/.cache/dirac-studio/tapes";
  return {};
}

NativeTapes::NativeTapes(std::vector<const CompiledFunction*> functions, NativeTapeOptions options)
    : functions_(std::move(functions)), options_(std::move(options)) {
  compiler_ = ConfiguredCompiler(options_);
  std::string identity;
  if (!ResolveCompiler(compiler_, identity)) {
    note_ = "no C compiler (" + compiler_ + " not found)";
    return;
  }
  std::string header;
  {
    std::ostringstream src;
    src << "/* generated by Dirac Studio: " << functions_.size()
        << " tapes of one model */\n"
           "double pow(double, double); double exp(double); double log(double);\n"
           "double sin(double); double cos(double); double tan(double); double asin(double);\n"
           "double acos(double); double atan(double); double atan2(double, double);\n"
           "double sinh(double); double cosh(double); double tanh(double);\n"
           "static double dirac_ipow(double x, int n) {\n"
           "  int invert = n < 0; long long m = invert ? -(long long)n : n; double r = 1.0;\n"
           "  while (m > 0) { if (m & 1) r *= x; x *= x; m >>= 1; }\n"
           "  return invert ? 1.0 / r : r;\n}\n";
    header = src.str();
  }
  std::vector<std::string> units;
  std::size_t instructions = 0, characters = 0;
  for (std::size_t i = 0; i < functions_.size(); ++i) {
    if (functions_[i]->instruction_count() == 0 && functions_[i]->num_outputs() == 0 &&
        functions_[i]->num_inputs() == 0) {
      // Default-constructed: an empty function keeps the numbering.
      units.push_back("void dirac_tape_" + std::to_string(i) +
                      "(const double* in, double* out, double* s) {"
                      "(void)in; (void)out; (void)s;}\n");
      continue;
    }
    if (!functions_[i]->WriteNativeSource(units, "dirac_tape_" + std::to_string(i))) {
      note_ = "a tape holds a non-finite constant; the interpreter evaluates it";
      return;
    }
    instructions += functions_[i]->instruction_count();
  }
  for (const std::string& unit : units) characters += unit.size();
  // The units in order, about the same number of characters per file.
  const std::size_t files = std::clamp<std::size_t>(
      (instructions + kInstructionsPerFile - 1) / kInstructionsPerFile, 1, kMaxFiles);
  sources_.assign(files, header);
  std::size_t file = 0, filled = 0;
  for (const std::string& unit : units) {
    if (filled >= (file + 1) * characters / files && file + 1 < files) ++file;
    sources_[file] += unit;
    filled += unit.size();
  }
  flags_ = CompilerFlags(instructions > kOptimizeLessFrom ? "-O1" : "-O2");
  std::string flags;
  for (const std::string& f : flags_) flags += " " + f;
  std::string all;
  for (const std::string& source : sources_) all += source + "/* end of file */\n";
  key_ = Hash128(std::string(kFormat) + "\n" + compiler_ + "\n" + identity + "\n" + flags + "\n" +
                 all);
  sources_[0] += "const char dirac_tape_key[] = \"" + key_ + "\";\n";
  for (const std::string& source : sources_)
    for (char c : source) source_lines_ += c == '\n';
  usable_ = true;
  const std::string dir =
      options_.cache_dir.empty() ? DefaultTapeCacheDirectory() : options_.cache_dir;
  if (dir.empty()) {
    usable_ = false;
    note_ = "no cache directory for compiled tapes (HOME and XDG_CACHE_HOME are unset)";
    return;
  }
  options_.cache_dir = dir;
  library_path_ = dir + "/" + key_ + ".so";
}

NativeTapes::~NativeTapes() = default;

bool NativeTapes::PrepareDirectory() {
  std::error_code ec;
  std::filesystem::create_directories(options_.cache_dir, ec);
  if (ec || ::access(options_.cache_dir.c_str(), W_OK | X_OK) != 0) {
    note_ = "the tape cache " + options_.cache_dir + " is not writable";
    return false;
  }
  PruneCache(options_.cache_dir);
  return true;
}

bool NativeTapes::Open(bool remove_if_bad) {
  void* handle = dlopen(library_path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    if (remove_if_bad && ::access(library_path_.c_str(), F_OK) == 0) {
      ::unlink(library_path_.c_str());
      note_ = "a damaged cache entry was removed";
    }
    return false;
  }
  const auto* stored = static_cast<const char*>(dlsym(handle, "dirac_tape_key"));
  std::vector<void (*)(const double*, double*, double*)> entries;
  bool ok = stored != nullptr && key_ == stored;
  for (std::size_t i = 0; ok && i < functions_.size(); ++i) {
    void* symbol = dlsym(handle, ("dirac_tape_" + std::to_string(i)).c_str());
    ok = symbol != nullptr;
    entries.push_back(reinterpret_cast<void (*)(const double*, double*, double*)>(symbol));
  }
  if (!ok) {
    dlclose(handle);
    if (remove_if_bad) ::unlink(library_path_.c_str());
    note_ = "a cache entry did not match its key and was removed";
    return false;
  }
  library_ = std::shared_ptr<void>(handle, [](void* h) { dlclose(h); });
  entry_points_ = std::move(entries);
  note_.clear();
  return true;
}

bool NativeTapes::LoadCached() {
  if (loaded()) return true;
  if (!usable_) return false;
  struct stat info {};
  if (::stat(library_path_.c_str(), &info) != 0) return false;
  if (!Open(true)) return false;
  ::utimensat(AT_FDCWD, library_path_.c_str(), nullptr, 0);  // recently used: kept by PruneCache
  return true;
}

std::vector<std::string> NativeTapes::WriteSources() {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    const std::string path = WriteTemporarySource(options_.cache_dir, key_, sources_[i]);
    if (path.empty()) {
      for (const std::string& written : paths) ::unlink(written.c_str());
      note_ = "cannot write to the tape cache " + options_.cache_dir;
      return {};
    }
    paths.push_back(path);
  }
  return paths;
}

void NativeTapes::CompileInBackground() {
  if (loaded() || !usable_ || background_started_) return;
  if (!PrepareDirectory()) return;
  background_started_ = true;
  const std::vector<std::string> sources = WriteSources();
  if (sources.empty()) return;
  const std::string partial = sources[0].substr(0, sources[0].size() - 2) + ".so.part";
  // The subshell outlives this process if need be: it compiles (one compiler per file, in
  // parallel, then a link), renames the result into place (atomic) and removes its temporary
  // files. `ulimit -t` bounds each compiler's CPU time.
  std::string flags, objects, waits, cleanup = ShellQuoted(partial);
  for (const std::string& f : flags_) flags += " " + ShellQuoted(f);
  std::string script = "(ulimit -t " +
                       std::to_string(static_cast<long>(options_.timeout_seconds) + 1) +
                       " 2>/dev/null; ok=1; ";
  if (sources.size() == 1) {
    script += ShellQuoted(compiler_) + flags + " -shared -o " + ShellQuoted(partial) + " " +
              ShellQuoted(sources[0]) + " -lm || ok=0; ";
  } else {
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const std::string object = sources[i].substr(0, sources[i].size() - 2) + ".o";
      script += ShellQuoted(compiler_) + flags + " -c -o " + ShellQuoted(object) + " " +
                ShellQuoted(sources[i]) + " & p" + std::to_string(i) + "=$!; ";
      waits += "wait $p" + std::to_string(i) + " || ok=0; ";
      objects += " " + ShellQuoted(object);
      cleanup += " " + ShellQuoted(object);
    }
    script += waits + "[ $ok = 1 ] && { " + ShellQuoted(compiler_) + " -shared -o " +
              ShellQuoted(partial) + objects + " -lm || ok=0; }; ";
  }
  for (const std::string& source : sources) cleanup += " " + ShellQuoted(source);
  script += "[ $ok = 1 ] && mv -f " + ShellQuoted(partial) + " " + ShellQuoted(library_path_) +
            "; rm -f " + cleanup + ") </dev/null >/dev/null 2>&1 &";
  const pid_t pid = Spawn({"/bin/sh", "-c", script});
  if (pid < 0) {
    for (const std::string& source : sources) ::unlink(source.c_str());
    note_ = "cannot start /bin/sh for the background compile";
    return;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

bool NativeTapes::Compile() {
  if (LoadCached()) return true;
  if (!usable_) return false;
  if (!PrepareDirectory()) return false;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(options_.timeout_seconds);
  const auto remaining = [&] {
    return std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  };
  const std::vector<std::string> sources = WriteSources();
  if (sources.empty()) return false;
  const std::string partial = sources[0].substr(0, sources[0].size() - 2) + ".so.part";
  std::vector<std::string> objects;
  bool ok = true, timed_out = false, spawned = true;
  if (sources.size() == 1) {
    std::vector<std::string> args = {compiler_};
    args.insert(args.end(), flags_.begin(), flags_.end());
    for (const std::string& a :
         {std::string("-shared"), std::string("-o"), partial, sources[0], std::string("-lm")})
      args.push_back(a);
    const pid_t pid = Spawn(args);
    spawned = pid >= 0;
    ok = spawned && WaitFor(pid, remaining(), timed_out);
  } else {
    // One compiler per file, all at once, then the link.
    std::vector<pid_t> pids;
    for (const std::string& source : sources) {
      objects.push_back(source.substr(0, source.size() - 2) + ".o");
      std::vector<std::string> args = {compiler_};
      args.insert(args.end(), flags_.begin(), flags_.end());
      for (const std::string& a : {std::string("-c"), std::string("-o"), objects.back(), source})
        args.push_back(a);
      pids.push_back(Spawn(args));
      spawned = spawned && pids.back() >= 0;
    }
    for (const pid_t pid : pids) {
      bool late = false;
      if (pid < 0) continue;
      if (!WaitFor(pid, ok ? remaining() : 0.0, late)) ok = false;
      timed_out = timed_out || late;
    }
    ok = ok && spawned;
    if (ok) {
      std::vector<std::string> args = {compiler_, "-shared", "-o", partial};
      args.insert(args.end(), objects.begin(), objects.end());
      args.push_back("-lm");
      const pid_t pid = Spawn(args);
      spawned = pid >= 0;
      ok = spawned && WaitFor(pid, remaining(), timed_out);
    }
  }
  if (ok) ok = ::rename(partial.c_str(), library_path_.c_str()) == 0;
  for (const std::string& source : sources) ::unlink(source.c_str());
  for (const std::string& object : objects) ::unlink(object.c_str());
  ::unlink(partial.c_str());
  compile_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!ok) {
    note_ = !spawned    ? "cannot run the C compiler " + compiler_
            : timed_out ? "the C compiler took longer than " +
                              std::to_string(static_cast<long>(options_.timeout_seconds)) + " s"
                        : "the C compiler " + compiler_ + " failed";
    return false;
  }
  compiled_here_ = true;
  if (!Open(true)) {
    if (note_.empty()) note_ = "the compiled tapes could not be loaded";
    return false;
  }
  return true;
}

CompiledFunction NativeTapes::Native(std::size_t i) const {
  return functions_.at(i)->WithNativeCode(entry_points_.at(i), library_);
}

}  // namespace dirac::symbolic
