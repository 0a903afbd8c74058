// The files of a batch run, shared by every batch subcommand (audit, render, crosscheck, count,
// analyze, import, merge): checked writes that keep their reason, files replaced atomically, one
// run per output (a lock naming its holder), a stable hash of the inputs, and the test hooks that
// stop a run at a named phase.
#pragma once

#include <cstdio>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace geotruth {

/// "cannot write PATH: <reason of errno `cause`>" (EIO when `cause` is 0).
std::runtime_error write_failure(const std::filesystem::path& path, int cause);

/// A file written under a temporary name beside `path` (PATH.tmp.<pid>) and renamed into place on
/// commit(): readers never see half a file; one not committed (an error, an exception) is removed.
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path path);  ///< throws std::runtime_error if it cannot be created
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  std::ostream& stream() { return *stream_; }
  /// Flushes, closes and renames; throws std::runtime_error with the reason of the first failure.
  void commit();

 private:
  std::filesystem::path path_, temp_;
  int fd_ = -1;
  std::unique_ptr<class DescriptorBuffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

/// Writes `bytes` to a temporary name beside `path` and renames it into place: readers never see
/// half a file, and a failed write leaves no temporary behind. Throws std::runtime_error (with the
/// reason: a full disk is not a silent truncation).
void write_atomically(const std::filesystem::path& path, std::string_view bytes);
/// The same for text written to a stream by `write`.
void write_atomically_with(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

/// Puts the file `from` at `to` (replacing it atomically) without copying its bytes when both are on
/// one file system (a hard link), else as a copy. `from` is left as it was.
void link_or_copy(const std::filesystem::path& from, const std::filesystem::path& to);

/// Removes the `NAME.tmp.PID` files another process's AtomicFile left in `dir` when it was killed.
/// Call it only while holding the run's lock: then no live writer of this run owns one.
void remove_stale_temporaries(const std::filesystem::path& dir);

/// A buffered writer to a file descriptor that keeps the reason (errno) of its first failed write,
/// which std::ofstream and std::cout lose.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd) : fd_(fd), buffer_(new char[kSize]) { setp(buffer_.get(), buffer_.get() + kSize); }
  ~DescriptorBuffer() override { sync(); }
  int error() const { return error_; }  ///< 0, or the errno of the first failed write

 protected:
  int_type overflow(int_type c) override;
  int sync() override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;

 private:
  bool drain();
  int fd_, error_ = 0;
  static constexpr std::size_t kSize = 1 << 16;
  std::unique_ptr<char[]> buffer_;  // not zeroed: a short output touches only the pages it fills
};

/// One run at a time per output: an advisory lock (flock) on `path` that names its holder
/// ("pid N"); released, and the file removed, when the run ends, also when it is killed. A second
/// run throws std::runtime_error "<what> is in use by another <subcommand> (pid N): …".
class RunLock {
 public:
  RunLock(const std::filesystem::path& path, const std::string& what, const std::string& subcommand);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

/// A hash of every input's name and bytes: a resumed run must continue the same data, not a file
/// edited in place to the same size. Standard input cannot be read twice: it is named, not hashed.
std::string inputs_hash(const std::vector<std::string>& inputs);

/// Test hooks (tests/audit_faults_test.sh, tests/cluster_test.sh), for the named phases of a run
/// ("checkpoint", "finishing", "complete", "renaming", "renamed", "published"):
///   GEOTRUTH_KILL_AT=<phase>   SIGKILL at that phase, as a crash or an out-of-memory killer would;
///   GEOTRUTH_PAUSE_AT=<phase>  wait there until killed (a scheduler's requeue, say).
/// With GEOTRUTH_HOOK_ONCE=<file>, only the first process to reach the phase (the one that
/// creates the file, writing "pid <pid> job <SLURM_JOB_ID>" into it) is stopped.
void reach(const char* phase);

}  // namespace geotruth
