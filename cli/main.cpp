// cosched: the command-line front end. Errors become exit codes in run_main and nowhere else.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <exception>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/version.hpp"
#include "cosched/app/run_main.hpp"

namespace cosched::cli {
std::vector<RegisteredCommand>& command_registry() {
  static std::vector<RegisteredCommand> registry;
  return registry;
}
}  // namespace cosched::cli

int main(int argc, char** argv) {
  CLI::App app{"cosched: co-schedule moldable kernels across cores and fast memory on one node"};
  app.set_version_flag("--version", std::string("cosched ") + COSCHED_VERSION);
  // At most one subcommand, and none is checked after the parse: CLI11's own "A subcommand is required" would come
  // before, and hide, its report of an unknown word or option ("cosched bogus").
  app.require_subcommand(0, 1);
  auto& registry = cosched::cli::command_registry();
  std::sort(registry.begin(), registry.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const auto& command : registry) command.install(app);
  return cosched::app::run_main(app, argc, argv, "cosched", [&app, &registry] {
    if (!app.get_subcommands().empty()) return;
    std::string names;
    for (const auto& command : registry) names += (names.empty() ? "" : ", ") + command.name;
    throw cosched::UsageError("a subcommand is required: one of " + names + " (see --help)");
  });
}
