#include "cosched/app/run_main.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"

namespace cosched::app {

namespace {

int report(std::string_view program, ErrorKind kind, const char* message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: {}: {}\n", program, to_string(kind), message);
  return exit_code_for(kind);
}

}  // namespace

int run_main(CLI::App& app, int argc, char** argv, std::string_view program,
             const std::function<void()>& after_parse) {
  try {
    try {
      app.parse(argc, argv);
      if (after_parse) after_parse();
    } catch (const CLI::CallForHelp&) {
      fmt::print("{}", app.help());
    } catch (const CLI::CallForAllHelp&) {
      fmt::print("{}", app.help("", CLI::AppFormatMode::All));
    } catch (const CLI::CallForVersion&) {
      fmt::print("{}\n", app.version());
    }
    flush_standard_output();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: usage error: {} (see --help)\n", program, bounded_echo(e.what(), kMessageLimit));
    return exit_code_for(ErrorKind::usage);
  } catch (const Error& e) {
    return report(program, e.kind(), e.what());
  } catch (const std::bad_alloc&) {
    return report(program, ErrorKind::resource, "out of memory (a size or count too large for this machine?)");
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: internal error: {}\n", program, bounded_echo(e.what(), kMessageLimit));
    return kExitInternalError;
  }
}

CLI::Validator seed_value() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
            !CLI::detail::lexical_cast(text, value)) {
          return fmt::format("value {} must be a whole number in [0, 18446744073709551615]", text);
        }
        return {};
      },
      "UINT64");
}

void refuse_unless_applies(const CLI::App& sub, std::initializer_list<const char*> names, bool applies,
                           std::string_view why) {
  if (applies) return;
  std::vector<std::string> given;
  for (const char* name : names) {
    if (sub.get_option(name)->count() > 0) given.emplace_back(name);
  }
  if (given.empty()) return;
  throw UsageError(fmt::format("{}: {}", fmt::join(given, ", "), why));
}

CLI::Validator finite_range(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value < min || value > max) {
          return fmt::format("value {} must be a finite number in [{:g}, {:g}]", text, min, max);
        }
        return {};
      },
      fmt::format("FLOAT in [{:g} - {:g}]", min, max));
}

CLI::Validator finite_positive(double max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value <= 0 || value > max) {
          return fmt::format("value {} must be a finite number > 0 and <= {:g}", text, max);
        }
        return {};
      },
      fmt::format("FLOAT in (0 - {:g}]", max));
}

}  // namespace cosched::app
