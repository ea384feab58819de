// stream_bench: run one kernel of the table (STREAM and beyond) pinned to cores, print a table or one JSON object.
// Errors become exit codes here and nowhere else (cosched::exit_code_for); a failed validation exits non-zero too.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/common/version.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/report.hpp"
#include "cosched/stream/stream_run.hpp"

namespace {

// Bounds of the options: every repetition's time is kept, and arrays beyond 4 PiB fit no memory.
constexpr unsigned kMaxReps = 100'000;
constexpr unsigned kMaxWarmup = 100'000;
constexpr double kMaxSizeMib = 0x1p42;
constexpr double kMinEmulationRatio = 1.0;
constexpr double kMaxEmulationRatio = 100.0;

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
  std::optional<double> emulation_ratio;  // emulated backend only
  bool json = false;
};

std::string kernel_help() {
  std::string help = "kernel:";
  for (const auto& kernel : cosched::stream::kernel_table()) {
    if (kernel.elementwise()) {
      help += fmt::format("\n  {:<7} {}  ({} bytes/element)", kernel.name, kernel.formula, kernel.bytes_per_element());
    } else {
      help += fmt::format("\n  {:<7} {}  ({}; {} arrays share the footprint)", kernel.name, kernel.formula,
                          cosched::stream::merit_unit_name(kernel.merit), kernel.array_count());
    }
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
  app.add_option("--size-mib", args.size_mib,
                 "size of EACH array in MiB (fractions allowed); kernels that are not element-wise: the footprint "
                 "divided by their number of arrays")
      ->check(cosched::app::finite_positive(kMaxSizeMib))
      ->capture_default_str();
  app.add_option("--reps", args.reps, "timed repetitions")->check(CLI::Range(1U, kMaxReps))->capture_default_str();
  app.add_option("--warmup", args.warmup, "untimed repetitions before the timed ones")
      ->check(CLI::Range(0U, kMaxWarmup))
      ->capture_default_str();
  app.add_option("--stores", args.stores, "auto|nt|regular: non-temporal (streaming) or regular stores")
      ->capture_default_str();
  app.add_option("--fast-fraction", args.fast_fraction, "share of every array in the fast tier, 0..1")
      ->check(cosched::app::finite_range(0.0, 1.0));
  app.add_option("--tier-backend", args.tier_backend, backend_help());
  app.add_option("--emulation-ratio", args.emulation_ratio,
                 "slow:fast bandwidth ratio of the emulated backend (default 5; emulated backend only)")
      ->check(cosched::app::finite_range(kMinEmulationRatio, kMaxEmulationRatio));
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
  config.array_bytes = static_cast<std::size_t>(args.size_mib * 1024.0 * 1024.0);  // in range: see add_options
  config.reps = args.reps;
  config.warmup_reps = args.warmup;
  config.stores = cosched::stream::parse_store_mode(args.stores);
  config.fast_fraction = args.fast_fraction;
  return config;
}

cosched::platform::TierOptions to_tier_options(const Arguments& args) {
  cosched::platform::TierOptions options;
  options.backend = args.tier_backend.value_or(args.fast_fraction ? "auto" : "none");
  if (cosched::platform::resolved_tier_backend_info(options.backend).capabilities.has_fast_tier &&
      !args.fast_fraction) {
    throw cosched::UsageError(fmt::format("--tier-backend {} needs --fast-fraction F (the share of each array to "
                                          "place in the fast tier)",
                                          options.backend));
  }
  if (args.emulation_ratio) {
    // Only the emulated tier uses the ratio; anywhere else it would be ignored without a word.
    const std::string backend = cosched::platform::resolve_tier_backend_name(options);
    if (!cosched::platform::tier_backend_info(backend).capabilities.emulated) {
      throw cosched::UsageError(
          fmt::format("--emulation-ratio applies to the emulated tier backend only, not {}", backend));
    }
    options.emulation_ratio = *args.emulation_ratio;
  }
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
  CLI::App app{"stream_bench: STREAM and roofline kernels (gemm, stencil, spmv, gups) pinned to cores, validated, "
               "with memory-tier placement"};
  app.set_version_flag("--version", std::string("stream_bench ") + COSCHED_VERSION);
  Arguments args;
  add_options(app, args);
  return cosched::app::run_main(app, argc, argv, "stream_bench", [&args] { run(args); });
}
