#pragma once
// Processes seen from a test: whether one still runs, and waiting for what a test expects of them. Shared by the
// process-tree tests (tests/exec) and the launcher's end-to-end ones (tests/launcher).
#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>

namespace cosched::test_support {

// Whether `pid` is a live (not zombie) process whose command line holds `token` — a pid reused by another process
// does not count.
inline bool running(pid_t pid, const std::string& token) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');
  if (paren == std::string::npos || paren + 2 >= text.size()) return false;
  if (text[paren + 2] == 'Z' || text[paren + 2] == 'X') return false;
  std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline");
  std::string args((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  std::replace(args.begin(), args.end(), '\0', ' ');
  return args.find(token) != std::string::npos;
}

// Waits until `condition` holds. No deadline of its own (a deadline would be a timing threshold on a machine whose
// speed swings): what never comes is a hang, which ctest's per-test timeout ends and reports under the test's
// name; meanwhile a line every 10 s on stderr says what the test is waiting for.
inline void wait_until(const std::function<bool()>& condition, const std::string& what) {
  auto next_note = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > next_note) {
      std::fprintf(stderr, "still waiting: %s\n", what.c_str());
      next_note += std::chrono::seconds(10);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Waits until `pid` no longer runs `token` (killed, ended, reaped or not).
inline void wait_until_gone(pid_t pid, const std::string& token, const std::string& what) {
  wait_until([&] { return !running(pid, token); }, what + " (pid " + std::to_string(pid) + ")");
}

}  // namespace cosched::test_support
