#include "reporting.hpp"

namespace cosched::cli {

void add_progress_option(CLI::App& sub, std::string& format) {
  sub.add_option("--progress", format,
                 "How progress, notes and results are shown: console (for people), json (one JSON object per line, "
                 "for programs: docs/formats.md, \"Progress JSON lines\")")
      ->check(CLI::IsMember(workflow::progress_format_names()))
      ->capture_default_str();
}

std::unique_ptr<Reporter> command_reporter(const std::string& format, const workflow::ConsoleStreams& console,
                                           bool stdout_holds_document) {
  return workflow::make_reporter(format, console, stdout_holds_document ? stderr : stdout);
}

}  // namespace cosched::cli
