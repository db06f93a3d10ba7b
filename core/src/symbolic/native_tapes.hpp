#pragma once
// Internal: a batch of tapes (one model's) as C, compiled by the system C compiler, cached on
// disk and loaded with dlopen. A large batch is spread over several files compiled in parallel
// (and at -O1 past a size: docs/native-tapes.md), its long tapes split into functions of a
// bounded length (symbolic/native_source.cpp). The machine code is bit-identical to the
// interpreter (CompiledFunction::WriteNativeSource mirrors every op), so a caller may switch
// between them at any time. Every failure is a note, never an exception.
//
// The cache: <dir>/<key>.so, key = 128-bit hash of the generated source, the compiler command
// and flags, and the compiler's identity (its resolved path, size and modification time). Entries
// are written as a private temporary file in <dir> and renamed into place, so concurrent
// processes (sweep shards) at worst compile the same entry twice and never see a partial one; a
// loaded entry must export the key it was built for, else it is discarded.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "symbolic/compiled_function.hpp"

namespace dirac::symbolic {

/// Where and how tapes are compiled.
struct NativeTapeOptions {
  /// The C compiler; empty: $DIRAC_CC, else the C compiler the build used, else `cc`.
  std::string compiler;
  /// The cache directory; empty: DefaultTapeCacheDirectory().
  std::string cache_dir;
  /// A compile running longer is killed (the interpreter stays) [s].
  double timeout_seconds = 300.0;
};

/// $DIRAC_TAPE_CACHE if set, else $XDG_CACHE_HOME/dirac-studio/tapes, else
/// $HOME/.cache/dirac-studio/tapes; empty if none of them is set.
std::string DefaultTapeCacheDirectory();

class NativeTapes {
 public:
  /// Generates the C source of `functions` (kept by pointer: they must outlive this object) and
  /// its cache key; compiles nothing. Never throws for a missing compiler or cache: note() says.
  explicit NativeTapes(std::vector<const CompiledFunction*> functions,
                       NativeTapeOptions options = {});
  NativeTapes(const NativeTapes&) = delete;
  NativeTapes& operator=(const NativeTapes&) = delete;
  ~NativeTapes();

  /// Loads the cache entry if it exists (a stat and a dlopen, about a millisecond); never
  /// compiles. Returns loaded().
  bool LoadCached();
  /// Starts the compile in a detached background process (its own process group, output
  /// discarded, CPU time bounded by the timeout) that writes the cache entry, and returns at once;
  /// a later LoadCached finds it. Does nothing if it was started already or cannot work.
  void CompileInBackground();
  /// Loads the cache entry or compiles it now, waiting at most the timeout. Returns loaded().
  bool Compile();

  bool loaded() const { return library_ != nullptr; }
  /// True if the compile was started in the background and LoadCached has not found it yet.
  bool compiling_in_background() const { return background_started_ && !loaded(); }
  /// True if a compile ran in this process (Compile), false for a cache hit.
  bool compiled_here() const { return compiled_here_; }
  /// Wall time of the compile that ran in this process (0 for a cache hit) [s].
  double compile_seconds() const { return compile_seconds_; }
  /// Function `i` running the loaded machine code (requires loaded()).
  CompiledFunction Native(std::size_t i) const;
  /// One line: why there is no machine code (empty when loaded).
  const std::string& note() const { return note_; }
  /// The cache key (32 hex digits; empty if the source could not be generated).
  const std::string& key() const { return key_; }
  /// The cache entry's path (empty without a usable cache directory).
  const std::string& library_path() const { return library_path_; }
  /// Lines of generated C (a measure of the compiler's work).
  std::size_t source_lines() const { return source_lines_; }
  /// The C files the batch is compiled from (one unless the batch is large).
  std::size_t source_files() const { return sources_.size(); }
  /// The compiler flags (optimisation level included), without -c, -shared or -o.
  const std::vector<std::string>& compiler_flags() const { return flags_; }

 private:
  bool Open(bool remove_if_bad);
  bool PrepareDirectory();
  // Writes each source to a private temporary file in the cache; their paths (empty: failed).
  std::vector<std::string> WriteSources();

  std::vector<const CompiledFunction*> functions_;
  NativeTapeOptions options_;
  std::string compiler_;  // as configured
  std::vector<std::string> sources_, flags_;
  std::string key_, library_path_, note_;
  std::size_t source_lines_ = 0;
  bool usable_ = false;  // a compiler was found and the source generated
  bool background_started_ = false;
  bool compiled_here_ = false;
  double compile_seconds_ = 0.0;
  std::shared_ptr<void> library_;
  std::vector<void (*)(const double*, double*, double*)> entry_points_;
};

}  // namespace dirac::symbolic
