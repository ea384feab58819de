// stream_bench: run one STREAM kernel pinned to cores, print a table or one JSON object. Errors become exit codes
// here and nowhere else (cosched::exit_code_for); a failed validation exits non-zero too.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/common/version.hpp"
#include "run_main.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/report.hpp"
#include "cosched/stream/stream_run.hpp"

namespace {

struct Arguments {
  std::string kernel = "triad";
  std::optional<unsigned> threads;
  std::vector<unsigned> cores;
  double size_mib = 256;
  unsigned reps = 10;
  unsigned warmup = 1;
  std::string stores = "auto";
  std::optional<double> fast_fraction;
  std::optional<std::string> tier_backend;
  double emulation_ratio = 5.0;
  bool json = false;
};

std::string kernel_help() {
  std::string help = "STREAM kernel:";
  for (const auto& kernel : cosched::stream::kernel_table()) {
    help += fmt::format("\n  {:<6} {}  ({} bytes/element)", kernel.name, kernel.formula, kernel.bytes_per_element());
  }
  return help;
}

std::string backend_help() {
  std::string names;
  for (const auto& name : cosched::platform::tier_backend_names()) names += (names.empty() ? "" : "|") + name;
  return "memory-tier backend (" + names + "); default: none without --fast-fraction, auto with it";
}

void add_options(CLI::App& app, Arguments& args) {
  app.add_option("--kernel", args.kernel, kernel_help())->capture_default_str();
  app.add_option("--threads", args.threads, "OpenMP threads, one pinned per core (default: all allowed cores)");
  app.add_option("--cores", args.cores, "core indices into the allowed cores, comma-separated (default: the first N)")
      ->delimiter(',');
  app.add_option("--size-mib", args.size_mib, "size of EACH array in MiB (fractions allowed)")->capture_default_str();
  app.add_option("--reps", args.reps, "timed repetitions")->capture_default_str();
  app.add_option("--warmup", args.warmup, "untimed repetitions before the timed ones")->capture_default_str();
  app.add_option("--stores", args.stores, "auto|nt|regular: non-temporal (streaming) or regular stores")
      ->capture_default_str();
  app.add_option("--fast-fraction", args.fast_fraction, "share of every array in the fast tier, 0..1");
  app.add_option("--tier-backend", args.tier_backend, backend_help());
  app.add_option("--emulation-ratio", args.emulation_ratio, "slow:fast bandwidth ratio of the emulated backend")
      ->capture_default_str();
  app.add_flag("--json", args.json, "print one JSON object instead of the table");
}

cosched::stream::StreamConfig to_config(const Arguments& args) {
  cosched::stream::StreamConfig config;
  config.kernel = args.kernel;
  config.cores = args.cores;
  if (args.threads) {
    config.threads = *args.threads;
  } else {
    config.threads = static_cast<unsigned>(args.cores.empty() ? cosched::platform::allowed_cores().size()
                                                              : args.cores.size());
  }
  if (!(args.size_mib > 0) || !std::isfinite(args.size_mib)) {
    throw cosched::UsageError(fmt::format("--size-mib must be a positive number, got {}", args.size_mib));
  }
  const double bytes = args.size_mib * 1024.0 * 1024.0;
  if (bytes > 0x1p62) {
    throw cosched::ResourceError(fmt::format("--size-mib {} does not fit in any memory", args.size_mib));
  }
  config.array_bytes = static_cast<std::size_t>(bytes);
  config.reps = args.reps;
  config.warmup_reps = args.warmup;
  config.stores = cosched::stream::parse_store_mode(args.stores);
  config.fast_fraction = args.fast_fraction;
  return config;
}

cosched::platform::TierOptions to_tier_options(const Arguments& args) {
  cosched::platform::TierOptions options;
  options.backend = args.tier_backend.value_or(args.fast_fraction ? "auto" : "none");
  if (options.backend != "none" && !args.fast_fraction) {
    throw cosched::UsageError(fmt::format("--tier-backend {} needs --fast-fraction F (the share of each array to "
                                          "place in the fast tier)",
                                          options.backend));
  }
  options.emulation_ratio = args.emulation_ratio;
  return options;
}

void run(const Arguments& args) {
  const cosched::stream::StreamConfig config = to_config(args);
  const auto backend = cosched::platform::make_tier_backend(to_tier_options(args));
  const cosched::stream::StreamResult result = cosched::stream::run_stream(config, *backend);
  if (args.json) {
    fmt::print("{}\n", cosched::stream::to_json(result).dump());
  } else {
    fmt::print("{}", cosched::stream::format_report(result));
  }
  if (!result.validated) throw cosched::RuntimeFailure("validation failed: " + result.validation_message);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"stream_bench: STREAM kernels pinned to cores, validated, with memory-tier placement"};
  app.set_version_flag("--version", std::string("stream_bench ") + COSCHED_VERSION);
  Arguments args;
  add_options(app, args);
  return cosched::cli::run_main(app, argc, argv, "stream_bench", [&args] { run(args); });
}
