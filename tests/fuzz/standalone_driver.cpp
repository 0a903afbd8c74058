// A libFuzzer-compatible driver for machines without clang's libFuzzer: replays every input file
// (files or folders) through LLVMFuzzerTestOneInput, then, with --seconds or --runs, mutates
// them (byte flips, insertions, deletions, duplications, splices, and numbers a parser should
// fear) and runs those. An input that kills the process is first written to fuzz-crash-<pid>.
//
// Usage: geotruth_fuzz_replay [--runs N] [--seconds S] [--seed K] PATH...
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

const std::string* current = nullptr;  // the input being run, for the crash handler

void on_crash(int sig) {
  if (current) {
    char name[64];
    std::snprintf(name, sizeof name, "fuzz-crash-%d", static_cast<int>(getpid()));
    const int fd = ::creat(name, 0644);
    if (fd >= 0) {
      [[maybe_unused]] const auto n = ::write(fd, current->data(), current->size());
      ::close(fd);
    }
    static const char note[] = "fuzz: crashing input written to fuzz-crash-<pid>\n";
    [[maybe_unused]] const auto m = ::write(2, note, sizeof note - 1);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void run(const std::string& input) {
  current = &input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  current = nullptr;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string mutate(std::string s, const std::vector<std::string>& pool, std::mt19937_64& rng) {
  static const char* kNumbers[] = {"0",    "-1",     "1e308", "1e-308", "1e309",  "99999999999999999999",
                                   "1/3",  "0/1",    "-0",    "NaN",    "1e-400", "\"1/0\"",
                                   "360",  "-1e300", "2",     "0.0001", "[]",     "{}",
                                   "null", "\"\"",   "\"x\""};
  auto pick = [&](std::size_t n) {
    return n == 0 ? std::size_t{0} : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  const int steps = 1 + static_cast<int>(pick(4));
  for (int k = 0; k < steps; ++k) {
    const std::size_t at = pick(s.size() + 1);
    switch (pick(7)) {
      case 0:  // flip a byte (not the format byte)
        if (s.size() > 1) s[1 + pick(s.size() - 1)] ^= static_cast<char>(1 << pick(8));
        break;
      case 1:  // insert a random byte
        s.insert(s.begin() + at, static_cast<char>(pick(256)));
        break;
      case 2:  // delete a range
        if (at < s.size()) s.erase(at, 1 + pick(std::min<std::size_t>(16, s.size() - at)));
        break;
      case 3:  // duplicate a range
        if (at < s.size()) s.insert(at, s.substr(at, 1 + pick(std::min<std::size_t>(64, s.size() - at))));
        break;
      case 4: {  // replace a run of digits by a number a parser should fear
        std::size_t d = s.find_first_of("0123456789", at);
        if (d == std::string::npos) break;
        std::size_t e = s.find_first_not_of("0123456789.-e", d);
        s.replace(d, (e == std::string::npos ? s.size() : e) - d, kNumbers[pick(std::size(kNumbers))]);
        break;
      }
      case 5: {  // splice in a piece of another input
        const std::string& other = pool[pick(pool.size())];
        const std::size_t from = pick(other.size());
        s.insert(at, other.substr(from, 1 + pick(std::min<std::size_t>(128, other.size() - from))));
        break;
      }
      default:                                              // another format
        if (!s.empty()) s[0] = static_cast<char>(pick(6));  // the fuzz target's six formats (kFormats)
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t runs = 0;
  double seconds = 0;
  std::uint64_t seed = 1;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) {
      runs = std::stoull(argv[++i]);
    } else if (arg == "--seconds" && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::stoull(argv[++i]);
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(arg))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) inputs.push_back(read_file(f));
    } else {
      inputs.push_back(read_file(arg));
    }
  }
  if (inputs.empty()) {
    std::cerr << "usage: geotruth_fuzz_replay [--runs N] [--seconds S] [--seed K] PATH...\n";
    return 2;
  }
  for (int sig : {SIGSEGV, SIGFPE, SIGABRT, SIGBUS, SIGILL}) ::signal(sig, on_crash);
  const auto start = std::chrono::steady_clock::now();
  for (const auto& input : inputs) run(input);
  std::size_t executions = inputs.size();
  std::mt19937_64 rng(seed);
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  for (std::size_t k = 0; (runs && k < runs) || (seconds > 0 && elapsed() < seconds); ++k, ++executions)
    run(mutate(inputs[k % inputs.size()], inputs, rng));
  std::cout << "fuzz: " << executions << " executions (" << inputs.size() << " seeds replayed) in " << elapsed()
            << " s, no crash\n";
  return 0;
}
