#pragma once
// One seam for everything a pipeline tells its user (as google/benchmark's BenchmarkReporter and taskflow's
// ObserverInterface): how far a long operation is, notes on what it does, warnings, and its results. Libraries
// emit through a Reporter and print nothing. The application layer (cosched::workflow, reporters.hpp) has the two
// implementations — a console for people (a live line on a terminal, plain lines in a log) and JSON lines for
// programs (`--progress json`) — and a library user may plug in a third (a GUI, a service, a Python binding).
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace cosched {

// How a person reads an operation's progress.
enum class ProgressStyle {
  counter,   // items of a known number with an ETA: a profiling sweep's points
  timeline,  // events of a run against its clock and its state: a launch's task starts and ends
  log,       // one line per step, as it is: a calibration's rounds
};

// A long operation at one moment.
struct Progress {
  std::string operation;  // what progresses: "profile", "launch", "calibrate"
  ProgressStyle style = ProgressStyle::counter;
  std::size_t done = 0;   // items finished
  std::size_t total = 0;  // items in all (0: unknown)
  double elapsed_s = 0.0;  // since the operation began
  double eta_s = 0.0;      // seconds it still needs, as estimated
  std::string event;       // what just happened, for people ("" on a redraw between events)
  std::string state;       // the whole operation in one line, for people (timeline style)
  bool redraw = false;     // no new event: the clock moved (only a live() reporter is sent these)
  nlohmann::json fields = nlohmann::json::object();  // what the event says, for programs
};

// What a pipeline found: a table, a prediction, a comparison.
struct Result {
  std::string kind;  // "prediction", "run-comparison", "profile-summary", ...
  std::string text;  // as a terminal shows it, every line ended by a newline
  nlohmann::json data = nullptr;  // the same for programs, where it has a JSON form (null: the text is all)
};

class Reporter {
 public:
  Reporter() = default;
  Reporter(const Reporter&) = delete;
  Reporter& operator=(const Reporter&) = delete;
  virtual ~Reporter() = default;

  virtual void progress(const Progress& progress) = 0;
  // The operation has ended: a live line is closed.
  virtual void progress_done(std::string_view operation) = 0;
  // One line of what is happening, without its newline.
  virtual void note(std::string_view line) = 0;
  // One line of what may be wrong, without its newline; the line says so itself ("cosched: warning: ...").
  virtual void warning(std::string_view line) = 0;
  virtual void result(const Result& result) = 0;
  // Delivers everything reported so far, before work whose news must not be lost (a launch of child processes
  // that write to the same terminal): throws PlatformError when it cannot be (a full disk, a closed pipe).
  virtual void flush() {}
  // Whether redraws between events are wanted — a person watching a terminal: a running operation then reports
  // its clock twice a second (Progress::redraw).
  [[nodiscard]] virtual bool live() const { return false; }
};

// Says nothing: for a library user who wants quiet, and for tests.
class SilentReporter final : public Reporter {
 public:
  void progress(const Progress& /*progress*/) override {}
  void progress_done(std::string_view /*operation*/) override {}
  void note(std::string_view /*line*/) override {}
  void warning(std::string_view /*line*/) override {}
  void result(const Result& /*result*/) override {}
};

}  // namespace cosched
