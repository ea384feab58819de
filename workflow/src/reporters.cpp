#include "cosched/workflow/reporters.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <utility>

#include "cosched/common/error.hpp"

namespace cosched::workflow {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Flushes `stream` and reports a write that failed on it, now or earlier (ferror remembers).
void flush_checked(std::FILE* stream) {
  if (stream == nullptr) return;
  if (std::fflush(stream) != 0 || std::ferror(stream) != 0) {
    const int error = errno;
    std::clearerr(stream);
    throw PlatformError("write", stream == stdout ? "standard output" : "standard error", error);
  }
}

std::string_view style_name(ProgressStyle style) noexcept {
  switch (style) {
    case ProgressStyle::counter: return "counter";
    case ProgressStyle::timeline: return "timeline";
    case ProgressStyle::log: return "log";
  }
  return "?";
}

}  // namespace

std::string format_duration(double seconds) {
  const long total = std::lround(std::max(0.0, seconds));
  const long h = total / 3600, m = total % 3600 / 60, s = total % 60;
  if (h > 0) return fmt::format("{}h{:02}m", h, m);
  if (m > 0) return fmt::format("{}m{:02}s", m, s);
  return fmt::format("{}s", s);
}

// ---- console ---------------------------------------------------------------------------------------------------

ConsoleReporter::ConsoleReporter(const ConsoleStreams& streams, bool live)
    : streams_(streams), live_(live && streams.progress != nullptr) {}

ConsoleReporter::~ConsoleReporter() {
  std::lock_guard lock(mutex_);
  end_live_line_locked();
}

void ConsoleReporter::end_live_line_locked() {
  if (!line_open_) return;
  fmt::print(streams_.progress, "\n");
  std::fflush(streams_.progress);
  line_open_ = false;
}

void ConsoleReporter::print_locked(std::FILE* stream, std::string_view text) {
  if (stream == nullptr) return;
  if (stream == streams_.progress) end_live_line_locked();
  fmt::print(stream, "{}", text);
  std::fflush(stream);
}

void ConsoleReporter::progress(const Progress& progress) {
  std::lock_guard lock(mutex_);
  std::FILE* out = streams_.progress;
  if (out == nullptr) return;
  switch (progress.style) {
    case ProgressStyle::counter:
      if (live_) {
        constexpr int width = 30;
        const int filled = progress.total == 0
                               ? width
                               : static_cast<int>(width * std::min(progress.done, progress.total) / progress.total);
        fmt::print(out, "\r[{}{}] {}/{} ETA {:>6}  {:<48}", std::string(filled, '#'), std::string(width - filled, '.'),
                   progress.done, progress.total, format_duration(progress.eta_s), progress.event);
        line_open_ = true;
      } else {
        fmt::print(out, "{}/{} {} ETA {}\n", progress.done, progress.total, progress.event,
                   format_duration(progress.eta_s));
      }
      break;
    case ProgressStyle::timeline:
      if (live_) {
        // Redrawn in place: back to the start of the line, the line, the rest of the old one cleared.
        fmt::print(out, "\r{}\x1b[K", progress.state);
        line_open_ = true;
      } else if (!progress.redraw) {
        fmt::print(out, "{:8.2f} s  {:<36} | {}\n", progress.elapsed_s, progress.event, progress.state);
      }
      break;
    case ProgressStyle::log:
      end_live_line_locked();
      fmt::print(out, "{}\n", progress.event);
      break;
  }
  std::fflush(out);
}

void ConsoleReporter::progress_done(std::string_view /*operation*/) {
  std::lock_guard lock(mutex_);
  end_live_line_locked();
}

void ConsoleReporter::note(std::string_view line) {
  std::lock_guard lock(mutex_);
  print_locked(streams_.messages, fmt::format("{}\n", line));
}

void ConsoleReporter::warning(std::string_view line) { note(line); }

void ConsoleReporter::result(const Result& result) {
  std::lock_guard lock(mutex_);
  print_locked(streams_.results, result.text);
}

void ConsoleReporter::flush() {
  std::lock_guard lock(mutex_);
  // stdout first: it is the stream whose failure (a full disk, a closed pipe) the commands report.
  for (std::FILE* stream : {streams_.results, streams_.messages, streams_.progress}) flush_checked(stream);
}

// ---- JSON lines ------------------------------------------------------------------------------------------------

JsonLinesReporter::JsonLinesReporter(std::FILE* out) : out_(out), start_s_(now_s()) {}

void JsonLinesReporter::write(nlohmann::json event) {
  // "event" and "t" first, for a person reading the lines too; the rest as the event gives them.
  nlohmann::ordered_json line_object;
  line_object["event"] = event.at("event");
  line_object["t"] = std::round((now_s() - start_s_) * 1e6) / 1e6;
  for (auto& [key, value] : event.items()) {
    if (key != "event") line_object[key] = std::move(value);
  }
  const std::string line = line_object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::lock_guard lock(mutex_);
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
}

void JsonLinesReporter::progress(const Progress& progress) {
  nlohmann::json event = {{"event", "progress"},
                          {"operation", progress.operation},
                          {"style", style_name(progress.style)},
                          {"done", progress.done},
                          {"total", progress.total},
                          {"elapsed_s", progress.elapsed_s},
                          {"eta_s", progress.eta_s},
                          {"text", progress.event}};
  if (!progress.state.empty()) event["state"] = progress.state;
  if (progress.redraw) event["redraw"] = true;
  if (!progress.fields.empty()) event["fields"] = progress.fields;
  write(std::move(event));
}

void JsonLinesReporter::progress_done(std::string_view operation) {
  write({{"event", "progress_done"}, {"operation", operation}});
}

void JsonLinesReporter::note(std::string_view line) { write({{"event", "note"}, {"text", line}}); }

void JsonLinesReporter::warning(std::string_view line) { write({{"event", "warning"}, {"text", line}}); }

void JsonLinesReporter::result(const Result& result) {
  write({{"event", "result"}, {"kind", result.kind}, {"text", result.text}, {"data", result.data}});
}

void JsonLinesReporter::flush() {
  std::lock_guard lock(mutex_);
  flush_checked(out_);
}

// ---- choosing one ----------------------------------------------------------------------------------------------

const std::vector<std::string>& progress_format_names() {
  static const std::vector<std::string> names{"console", "json"};
  return names;
}

std::unique_ptr<Reporter> make_reporter(std::string_view format, const ConsoleStreams& console, std::FILE* json) {
  if (format == "console") {
    const bool live = console.progress != nullptr && ::isatty(::fileno(console.progress)) != 0;
    return std::make_unique<ConsoleReporter>(console, live);
  }
  if (format == "json") return std::make_unique<JsonLinesReporter>(json);
  throw UsageError(fmt::format("--progress {}: one of console, json", format));
}

}  // namespace cosched::workflow
