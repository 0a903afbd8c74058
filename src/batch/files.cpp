#include "batch/files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <ostream>

namespace geotruth {
namespace fs = std::filesystem;

std::runtime_error write_failure(const fs::path& path, int cause) {
  return std::runtime_error("cannot write " + path.string() + ": " + std::strerror(cause ? cause : EIO));
}

AtomicFile::AtomicFile(fs::path path) : path_(std::move(path)) {
  temp_ = path_.string() + ".tmp." + std::to_string(::getpid());
  fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw write_failure(path_, errno);  // fail before the work, not after it
  buffer_ = std::make_unique<DescriptorBuffer>(fd_);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

AtomicFile::~AtomicFile() {
  if (fd_ < 0) return;
  stream_.reset();
  buffer_.reset();
  ::close(fd_);
  ::unlink(temp_.c_str());  // not committed: leave no partial output
}

void AtomicFile::commit() {
  stream_->flush();
  const int failed = buffer_->error();
  stream_.reset();
  buffer_.reset();
  const int closed = ::close(fd_) == 0 ? 0 : errno;
  fd_ = -1;
  if (failed || closed || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int cause = failed ? failed : closed ? closed : errno;
    ::unlink(temp_.c_str());
    throw write_failure(path_, cause);
  }
}

void write_atomically(const fs::path& path, std::string_view bytes) {
  AtomicFile file(path);
  file.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.commit();
}

void write_atomically_with(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  AtomicFile file(path);
  write(file.stream());
  file.commit();
}

void link_or_copy(const fs::path& from, const fs::path& to) {
  const fs::path temp = to.string() + ".tmp";
  fs::remove(temp);
  std::error_code ec;
  fs::create_hard_link(from, temp, ec);
  if (ec) {
    fs::copy_file(from, temp, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      fs::remove(temp);
      throw std::runtime_error("cannot write " + to.string() + ": " + ec.message());
    }
  }
  fs::rename(temp, to, ec);
  if (ec) {
    fs::remove(temp);
    throw std::runtime_error("cannot write " + to.string() + ": " + ec.message());
  }
}

void remove_stale_temporaries(const fs::path& dir) {
  const std::string mine = ".tmp." + std::to_string(::getpid());
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const auto at = name.rfind(".tmp.");
    if (at == std::string::npos || at == 0 || name.compare(at, std::string::npos, mine) == 0) continue;
    const std::string pid = name.substr(at + 5);
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code ignored;
    fs::remove(it->path(), ignored);
  }
}

int DescriptorBuffer::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) sputc(traits_type::to_char_type(c));
  return traits_type::not_eof(c);
}

std::streamsize DescriptorBuffer::xsputn(const char* s, std::streamsize n) {
  // Long writes go straight to the descriptor once the buffer is drained: no copy through it.
  if (n < static_cast<std::streamsize>(kSize) / 4) return std::streambuf::xsputn(s, n);
  if (!drain()) return 0;
  std::streamsize done = 0;
  while (done < n) {
    const ssize_t w = ::write(fd_, s + done, static_cast<std::size_t>(n - done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error_ = w < 0 ? errno : EIO;
      return done;
    }
    done += w;
  }
  return done;
}

int DescriptorBuffer::sync() {
  return drain() ? 0 : -1;
}

bool DescriptorBuffer::drain() {
  const char* from = pbase();
  while (from < pptr() && !error_) {
    const ssize_t n = ::write(fd_, from, pptr() - from);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      error_ = n < 0 ? errno : EIO;
    else
      from += n;
  }
  setp(buffer_.get(), buffer_.get() + kSize);
  return !error_;
}

RunLock::RunLock(const fs::path& path, const std::string& what, const std::string& subcommand) : path_(path) {
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw write_failure(path_, errno);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    char holder[256] = {};
    const ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
    ::close(fd_);
    std::string who(holder, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
    throw std::runtime_error(what + " is in use by another " + subcommand + (who.empty() ? "" : " (" + who + ")") +
                             ": wait for it to end or choose another -o");
  }
  const std::string me = "pid " + std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, me.data(), me.size(), 0) < 0) throw write_failure(path_, errno);
}

RunLock::~RunLock() {
  ::unlink(path_.c_str());
  ::close(fd_);
}

std::string inputs_hash(const std::vector<std::string>& inputs) {
  // XXH3: the run's inputs are hashed before its first record, serial work a fast hash keeps to a
  // few milliseconds (FNV-1a, a byte at a time, took 22 ms of a one-second run for 14 MB).
  const std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
  XXH3_64bits_reset(state.get());
  std::vector<char> buffer(1 << 20);
  for (const auto& path : inputs) {
    XXH3_64bits_update(state.get(), path.data(), path.size() + 1);  // with its '\0': the names stay apart
    if (path == "-") continue;
    std::ifstream in(path, std::ios::binary);
    while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0)
      XXH3_64bits_update(state.get(), buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits_digest(state.get())));
  return hex;
}

void reach(const char* phase) {
  static const char* kill_at = std::getenv("GEOTRUTH_KILL_AT");
  static const char* pause_at = std::getenv("GEOTRUTH_PAUSE_AT");
  const bool kill = kill_at && std::strcmp(kill_at, phase) == 0;
  const bool pause = pause_at && std::strcmp(pause_at, phase) == 0;
  if (!kill && !pause) return;
  if (const char* once = std::getenv("GEOTRUTH_HOOK_ONCE")) {
    const int fd = ::open(once, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return;  // another process (or an earlier run of this one) was stopped already
    const char* job = std::getenv("SLURM_JOB_ID");
    const std::string who = "pid " + std::to_string(::getpid()) + " job " + (job ? job : "-") + "\n";
    [[maybe_unused]] const ssize_t n = ::write(fd, who.data(), who.size());
    ::close(fd);
  }
  if (kill) std::raise(SIGKILL);
  for (;;) ::pause();
}

}  // namespace geotruth
