// io/atomic_file.* on its own: the destination is untouched until Commit() (old content, or
// absent), the temporary sits beside it and is gone after Commit() or destruction, permission
// bits are kept, a non-regular destination is refused naming the path and its kind, and
// WriteAll/CheckedOutput report a failed write naming the destination.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "dirac/error.hpp"
#include "io/atomic_file.hpp"

namespace dirac {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dirac-atomic-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::size_t FilesInDir() const {
    std::size_t n = 0;
    for (const auto& entry : fs::directory_iterator(dir_)) n += entry.exists();
    return n;
  }
  static std::string Read(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

TEST_F(AtomicFileTest, DestinationChangesOnlyOnCommit) {
  const fs::path path = dir_ / "out.txt";
  std::ofstream(path) << "old\n";
  {
    io::AtomicFile file(path.string());
    file.Write("new ");
    file.Write(std::string(100000, 'x'));  // past the 64 KiB buffer: a real write to the temporary
    EXPECT_EQ(Read(path), "old\n");
    EXPECT_EQ(FilesInDir(), 2u);  // the destination and the temporary beside it
    file.Commit();
    EXPECT_EQ(FilesInDir(), 1u);
  }
  const std::string text = Read(path);
  EXPECT_EQ(text.size(), 4u + 100000u);
  EXPECT_EQ(text.substr(0, 4), "new ");
}

TEST_F(AtomicFileTest, DestructionWithoutCommitLeavesTheOldFileAndNoTemporary) {
  const fs::path path = dir_ / "out.txt";
  std::ofstream(path) << "old\n";
  {
    io::AtomicFile file(path.string());
    file.Write(std::string(200000, 'y'));
  }
  EXPECT_EQ(Read(path), "old\n");
  EXPECT_EQ(FilesInDir(), 1u);
  {
    io::AtomicFile fresh((dir_ / "absent.txt").string());
    fresh.Write("never committed");
  }
  EXPECT_FALSE(fs::exists(dir_ / "absent.txt"));
  EXPECT_EQ(FilesInDir(), 1u);
}

TEST_F(AtomicFileTest, PermissionBitsOfTheDestinationAreKept) {
  const fs::path path = dir_ / "script.sh";
  std::ofstream(path) << "#!/bin/sh\n";
  ASSERT_EQ(::chmod(path.c_str(), 0750), 0);
  io::AtomicFile file(path.string());
  file.Write("#!/bin/sh\nexit 0\n");
  file.Commit(false);
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_mode & 07777, 0750u);
  EXPECT_EQ(Read(path), "#!/bin/sh\nexit 0\n");
}

TEST_F(AtomicFileTest, NonRegularDestinationsAreRefusedNamingPathAndKind) {
  const fs::path target = dir_ / "target.txt";
  std::ofstream(target) << "kept\n";
  const fs::path link = dir_ / "link.txt";
  fs::create_symlink(target, link);
  try {
    io::AtomicFile file(link.string());
    FAIL() << "a symbolic link was accepted as destination";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write '" + link.string() +
                                         "': it exists and is a symbolic link; refusing to "
                                         "replace it with a regular file");
  }
  EXPECT_EQ(Read(target), "kept\n");
  try {
    io::AtomicFile file(dir_.string());
    FAIL() << "a directory was accepted as destination";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("it exists and is a directory"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(FilesInDir(), 2u);  // nothing left behind
}

TEST_F(AtomicFileTest, FailedWritesNameTheDestination) {
  // A pipe whose reading end is closed: EPIPE (SIGPIPE ignored for the write).
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  try {
    io::WriteAll(fds[1], "abc", 3, "standard output");
    ADD_FAILURE() << "a write to a closed pipe succeeded";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()).find("cannot write 'standard output': "), 0u) << e.what();
  }
  io::CheckedOutput out(fds[1], "table.csv");
  out.Write("x");  // buffered, no error yet
  EXPECT_THROW(out.Flush(), IoError);
  ::sigaction(SIGPIPE, &previous, nullptr);
  ::close(fds[1]);
  // A missing directory: the temporary cannot be created.
  try {
    io::AtomicFile file((dir_ / "no" / "such" / "x.csv").string());
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("x.csv': cannot create"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dirac
