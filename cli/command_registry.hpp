#pragma once
// Each `cosched` subcommand lives in its own file and registers itself here by name, so adding a command
// touches one file. Registration happens during static initialisation of the executable's own object files.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace cosched::cli {

// Adds the subcommand to `app` and wires its callback. The callback may throw cosched::Error.
using CommandInstaller = std::function<void(CLI::App& app)>;

struct RegisteredCommand {
  std::string name;
  CommandInstaller install;
};

std::vector<RegisteredCommand>& command_registry();

struct CommandRegistration {
  CommandRegistration(std::string name, CommandInstaller install) {
    command_registry().push_back({std::move(name), std::move(install)});
  }
};

}  // namespace cosched::cli
