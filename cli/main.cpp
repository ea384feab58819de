// cosched: the command-line front end. Errors become exit codes here and nowhere else.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <exception>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"

namespace cosched::cli {
std::vector<RegisteredCommand>& command_registry() {
  static std::vector<RegisteredCommand> registry;
  return registry;
}
}  // namespace cosched::cli

int main(int argc, char** argv) {
  CLI::App app{"cosched: co-schedule moldable kernels across cores and fast memory on one node"};
  app.set_version_flag("--version", std::string("cosched ") + COSCHED_VERSION);
  app.require_subcommand(1);
  auto& registry = cosched::cli::command_registry();
  std::sort(registry.begin(), registry.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const auto& command : registry) command.install(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const cosched::Error& e) {
    fmt::print(stderr, "cosched: {}: {}\n", cosched::to_string(e.kind()), e.what());
    return cosched::exit_code_for(e.kind());
  } catch (const std::exception& e) {
    fmt::print(stderr, "cosched: internal error: {}\n", e.what());
    return 70;
  }
  return 0;
}
