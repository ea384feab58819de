#pragma once
// How a command shows what its pipeline reports: `--progress console` (default: people, on the streams the
// command has always used) or `--progress json` (programs: every event one JSON line, on stdout — on stderr when
// stdout carries the command's own document, e.g. `-o -`). The reporters are cosched::workflow's.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "cosched/workflow/reporters.hpp"

namespace cosched::cli {

// Adds --progress console|json to `sub`, into `format`.
void add_progress_option(CLI::App& sub, std::string& format);

// The reporter `format` names: a console on `console`, or JSON lines on stdout (stderr when
// `stdout_holds_document`).
[[nodiscard]] std::unique_ptr<Reporter> command_reporter(const std::string& format,
                                                         const workflow::ConsoleStreams& console,
                                                         bool stdout_holds_document = false);

}  // namespace cosched::cli
