#pragma once
// The two reporters of the one reporter seam (cosched/common/reporter.hpp): the console, for people, and JSON
// lines, for programs (`--progress json`). The commands make one (make_reporter) and hand it to the pipeline they
// run; nothing below this layer prints.
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/common/reporter.hpp"

namespace cosched::workflow {

// "1h02m", "3m05s", "12s": how the console shows an ETA.
[[nodiscard]] std::string format_duration(double seconds);

// Where a console shows each kind of event (null: not shown — `--quiet`, or a command that shows no progress).
struct ConsoleStreams {
  std::FILE* progress = stderr;
  std::FILE* messages = stderr;  // notes and warnings
  std::FILE* results = stdout;
};

// What people read. Each event is flushed as it comes, since the children a pipeline runs write to the same
// terminal. A live console (`live`: the progress stream is a terminal) redraws one progress line in place;
// otherwise each event is a line:
//   counter  live "\r[#####.....] 3/12 ETA 1m05s  <event>"      plain "3/12 <event> ETA 1m05s"
//   timeline live "\r<state>" (cleared to the end of the line)  plain "    4.20 s  <event padded> | <state>"
//   log      "<event>", live or not
class ConsoleReporter final : public Reporter {
 public:
  ConsoleReporter(const ConsoleStreams& streams, bool live);
  ~ConsoleReporter() override;  // ends a live line

  void progress(const Progress& progress) override;
  void progress_done(std::string_view operation) override;
  void note(std::string_view line) override;
  void warning(std::string_view line) override;
  void result(const Result& result) override;
  void flush() override;
  [[nodiscard]] bool live() const override { return live_; }

 private:
  void end_live_line_locked();  // a line of its own for what follows a redrawn progress line
  void print_locked(std::FILE* stream, std::string_view text);

  ConsoleStreams streams_;
  bool live_;
  bool line_open_ = false;  // a live progress line is drawn and not yet ended
  std::mutex mutex_;        // progress may come from a launch's ticker thread
};

// What programs read: one JSON object per line on `out`, each with "event" ("progress", "progress_done", "note",
// "warning", "result") and the seconds since the reporter was made ("t"); progress with its figures, a result with
// its kind, its text and its data (docs/formats.md, "Progress JSON lines").
class JsonLinesReporter final : public Reporter {
 public:
  explicit JsonLinesReporter(std::FILE* out);

  void progress(const Progress& progress) override;
  void progress_done(std::string_view operation) override;
  void note(std::string_view line) override;
  void warning(std::string_view line) override;
  void result(const Result& result) override;
  void flush() override;

 private:
  void write(nlohmann::json event);

  std::FILE* out_;
  double start_s_;
  std::mutex mutex_;
};

// How a command shows what its pipeline reports (`--progress`): "console" (default) or "json".
[[nodiscard]] const std::vector<std::string>& progress_format_names();

// The reporter `format` names: a console on `console` (live when its progress stream is a terminal), or JSON lines
// on `json`. Throws UsageError for another format.
[[nodiscard]] std::unique_ptr<Reporter> make_reporter(std::string_view format, const ConsoleStreams& console,
                                                      std::FILE* json);

}  // namespace cosched::workflow
