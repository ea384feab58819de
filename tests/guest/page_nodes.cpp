// page_nodes: where a running program's pages live, read from outside it — the guest tests' check of where
// stream_bench's tier backends put each array (tests/guest/, docs/guest.md), which trusts no allocator.
//   page_nodes --min-rss-mib N -- COMMAND [ARGS...]
// Starts COMMAND, waits until N MiB of its large anonymous mappings are on nodes and that count has not changed
// for a second of readings (its arrays are first-touched), stops it (SIGSTOP),
// reads the node of every page of each anonymous mapping of at least 1 MiB with move_pages(2) (nodes = NULL: a
// query, nothing moves), prints one JSON line {"page_nodes": {"pid", "mappings": [{"start", "pages",
// "runs": [[node, count], ...]}]}} (node -2: not resident), resumes the command and exits with its exit code.
// Exit 3 when the command ended before that.
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

constexpr std::size_t page_bytes = 4096;

long resident_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

struct Mapping {
  unsigned long start = 0;
  unsigned long end = 0;
};

// Anonymous private mappings (no file, or the heap) of at least 1 MiB: where large arrays live.
std::vector<Mapping> large_anonymous_mappings(pid_t pid) {
  std::vector<Mapping> mappings;
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  for (std::string line; std::getline(maps, line);) {
    std::istringstream fields(line);
    std::string range, perms, offset, device, inode, path;
    fields >> range >> perms >> offset >> device >> inode;
    std::getline(fields >> std::ws, path);
    if (inode != "0" || (!path.empty() && path != "[heap]") || perms.find('w') == std::string::npos) continue;
    Mapping mapping;
    std::sscanf(range.c_str(), "%lx-%lx", &mapping.start, &mapping.end);
    if (mapping.end - mapping.start >= (1UL << 20)) mappings.push_back(mapping);
  }
  return mappings;
}

// Run-length encoded page nodes of one mapping of process `pid`.
std::vector<std::pair<int, std::size_t>> page_runs(pid_t pid, const Mapping& mapping) {
  const std::size_t count = (mapping.end - mapping.start) / page_bytes;
  std::vector<void*> pages(count);
  for (std::size_t i = 0; i < count; ++i) pages[i] = reinterpret_cast<void*>(mapping.start + i * page_bytes);
  std::vector<int> status(count, -1);
  // A failure (the process ended while we looked) leaves every page "not resident".
  if (::syscall(SYS_move_pages, pid, count, pages.data(), nullptr, status.data(), 0) != 0) status.assign(count, -2);
  std::vector<std::pair<int, std::size_t>> runs;
  for (int node : status) {
    if (node < 0) node = -2;  // -ENOENT (not resident) and any other error: not on a node
    if (!runs.empty() && runs.back().first == node) {
      ++runs.back().second;
    } else {
      runs.emplace_back(node, 1);
    }
  }
  return runs;
}

}  // namespace

// Pages of the large anonymous mappings that are resident on some node.
std::size_t resident_pages(pid_t pid) {
  std::size_t resident = 0;
  for (const Mapping& mapping : large_anonymous_mappings(pid)) {
    for (const auto& [node, count] : page_runs(pid, mapping)) {
      if (node >= 0) resident += count;
    }
  }
  return resident;
}

int main(int argc, char** argv) {
  if (argc < 5 || std::strcmp(argv[1], "--min-rss-mib") != 0 || std::strcmp(argv[3], "--") != 0) {
    std::fprintf(stderr, "usage: page_nodes --min-rss-mib N -- COMMAND [ARGS...]\n");
    return 2;
  }
  const long min_kib = std::atol(argv[2]) * 1024;
  const std::size_t min_pages = static_cast<std::size_t>(min_kib) * 1024 / page_bytes;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execvp(argv[4], argv + 4);
    std::fprintf(stderr, "page_nodes: cannot run %s: %s\n", argv[4], std::strerror(errno));
    std::_Exit(127);
  }
  int status = 0;
  // The resident set must have reached N MiB (reading it is cheap); then, at each reading, with the command stopped
  // (so that it cannot free its arrays between the check and the reading), N MiB of the large anonymous mappings
  // must be on nodes (other memory, libraries and heap, counts in the resident set too) and that count must not
  // have changed for a second of readings between which the command ran. A second, not one interval of 100 ms: in
  // a TCG guest on a loaded host one thread's vCPU can stall that long while the others have touched their parts,
  // and its share of an array is then caught untouched (tests/guest/guest_test.cpp counts whole arrays).
  constexpr auto settled_for = std::chrono::seconds(1);
  std::size_t last_pages = 0;
  auto unchanged_since = std::chrono::steady_clock::now();
  for (;;) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      std::fprintf(stderr, "page_nodes: %s ended before %zu of its pages were resident and settled\n", argv[4],
                   min_pages);
      return 3;
    }
    if (resident_kib(pid) >= min_kib) {
      ::kill(pid, SIGSTOP);
      ::waitpid(pid, &status, WUNTRACED);
      if (!WIFSTOPPED(status)) {
        std::fprintf(stderr, "page_nodes: %s ended before its pages could be read\n", argv[4]);
        return 3;
      }
      const std::size_t pages = resident_pages(pid);
      const auto now = std::chrono::steady_clock::now();
      if (pages != last_pages) {
        last_pages = pages;
        unchanged_since = now;
      } else if (pages >= min_pages && now - unchanged_since >= settled_for) {
        break;
      }
      ::kill(pid, SIGCONT);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::string json = "{\"page_nodes\": {\"pid\": " + std::to_string(pid) + ", \"mappings\": [";
  bool first_mapping = true;
  for (const Mapping& mapping : large_anonymous_mappings(pid)) {
    json += std::string(first_mapping ? "" : ", ") + "{\"start\": " + std::to_string(mapping.start) +
            ", \"pages\": " + std::to_string((mapping.end - mapping.start) / page_bytes) + ", \"runs\": [";
    bool first_run = true;
    for (const auto& [node, count] : page_runs(pid, mapping)) {
      json += std::string(first_run ? "" : ", ") + "[" + std::to_string(node) + ", " + std::to_string(count) + "]";
      first_run = false;
    }
    json += "]}";
    first_mapping = false;
  }
  json += "]}}\n";
  std::fputs(json.c_str(), stdout);
  std::fflush(stdout);
  ::kill(pid, SIGCONT);
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
