#include "test_support.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <system_error>
#include <thread>
#include <vector>


namespace cosched::launcher::testing {

namespace {

// Runs before main() when this executable is started as an append task.
[[maybe_unused]] const bool append_task_hook = [] {
  const char* spec = std::getenv("COSCHED_TEST_APPEND");
  if (spec == nullptr) return false;
  // file:line:sleep_ms, parsed with C strings (this runs before main, in a process that only appends).
  const char* first = std::strchr(spec, ':');
  const char* last = std::strrchr(spec, ':');
  if (first == nullptr || last == first) ::_exit(2);
  char file[4096] = {};
  char line[512] = {};
  std::memcpy(file, spec, std::min<std::size_t>(static_cast<std::size_t>(first - spec), sizeof file - 1));
  const auto line_length = std::min<std::size_t>(static_cast<std::size_t>(last - first - 1), sizeof line - 2);
  std::memcpy(line, first + 1, line_length);
  line[line_length] = '\n';
  std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(last + 1)));
  const int fd = ::open(file, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0 || ::write(fd, line, line_length + 1) != static_cast<ssize_t>(line_length + 1)) ::_exit(1);
  ::close(fd);
  ::_exit(0);
}();

}  // namespace

std::vector<std::string> append_command(const std::filesystem::path& file, const std::string& line, int sleep_ms) {
  return {"/usr/bin/env", "COSCHED_TEST_APPEND=" + file.string() + ":" + line + ":" + std::to_string(sleep_ms),
          std::filesystem::read_symlink("/proc/self/exe").string()};
}

}  // namespace cosched::launcher::testing
