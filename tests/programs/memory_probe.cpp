// A small program of the test suite that stands for "the user's application" in command-task tests: it allocates
// and touches N MiB, then prints one JSON line with the memory policy it runs under (get_mempolicy, as the launcher
// set it before exec), the NUMA nodes its pages landed on (move_pages), its CPU affinity and the environment
// variables asked for. Options: --mib N (default 8), --exit CODE (end with that code after reporting), --sleep S
// (sleep first: a hanging task), --env NAME (report NAME's value; repeatable), --expect-cpus N (exit 4 unless bound
// to exactly N CPUs: checks {threads} and the binding at once), --expect-env NAME (exit 5 when NAME is unset).
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cosched/platform/mempolicy.hpp"

int main(int argc, char** argv) {
  double mib = 8.0;
  int exit_code = 0;
  double sleep_s = 0.0;
  std::vector<std::string> env_names;
  int expect_cpus = 0;
  std::vector<std::string> expect_env;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--mib") mib = std::atof(argv[i + 1]);
    else if (option == "--exit") exit_code = std::atoi(argv[i + 1]);
    else if (option == "--sleep") sleep_s = std::atof(argv[i + 1]);
    else if (option == "--env") env_names.emplace_back(argv[i + 1]);
    else if (option == "--expect-cpus") expect_cpus = std::atoi(argv[i + 1]);
    else if (option == "--expect-env") expect_env.emplace_back(argv[i + 1]);
    else {
      std::fprintf(stderr, "memory_probe: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (sleep_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(sleep_s));
  const auto bytes = static_cast<std::size_t>(mib * 1024 * 1024);
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    std::fprintf(stderr, "memory_probe: mmap of %zu bytes failed: %s\n", bytes, std::strerror(errno));
    return 3;
  }
  std::memset(memory, 1, bytes);  // first touch: the policy decides where each page goes
  const auto policy = cosched::platform::current_memory_policy();
  std::map<int, std::size_t> pages_on;
  for (int node : cosched::platform::nodes_of_pages(memory, bytes)) ++pages_on[node];
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  ::sched_getaffinity(0, sizeof cpus, &cpus);

  std::printf("{\"mode\": \"%s\", \"nodes\": [", cosched::platform::memory_policy_mode_name(policy.mode).c_str());
  for (std::size_t i = 0; i < policy.nodes.size(); ++i) std::printf("%s%u", i ? ", " : "", policy.nodes[i]);
  std::printf("], \"pages_on\": {");
  bool first = true;
  for (const auto& [node, count] : pages_on) {
    std::printf("%s\"%d\": %zu", first ? "" : ", ", node, count);
    first = false;
  }
  std::printf("}, \"cpus\": %d, \"env\": {", CPU_COUNT(&cpus));
  for (std::size_t i = 0; i < env_names.size(); ++i) {
    const char* value = std::getenv(env_names[i].c_str());
    std::printf("%s\"%s\": ", i ? ", " : "", env_names[i].c_str());
    if (value != nullptr) {
      std::printf("\"%s\"", value);
    } else {
      std::printf("null");
    }
  }
  std::printf("}}\n");
  std::fflush(stdout);
  if (exit_code != 0) std::fprintf(stderr, "memory_probe: ending with exit code %d as asked\n", exit_code);
  ::munmap(memory, bytes);
  if (expect_cpus > 0 && CPU_COUNT(&cpus) != expect_cpus) {
    std::fprintf(stderr, "memory_probe: bound to %d CPUs, expected %d\n", CPU_COUNT(&cpus), expect_cpus);
    return 4;
  }
  for (const auto& name : expect_env) {
    if (std::getenv(name.c_str()) == nullptr) {
      std::fprintf(stderr, "memory_probe: %s is not set\n", name.c_str());
      return 5;
    }
  }
  return exit_code;
}
