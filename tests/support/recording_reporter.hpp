#pragma once
// A Reporter (cosched/common/reporter.hpp) that keeps what it is told, for tests: every event in order, and the
// text a console would show of it.
#include <string>
#include <string_view>
#include <vector>

#include "cosched/common/reporter.hpp"

namespace cosched::test_support {

class RecordingReporter final : public Reporter {
 public:
  struct Event {
    std::string type;  // "progress", "progress_done", "note", "warning", "result"
    std::string text;  // the line, the result's text, the progress event, the operation that ended
    std::string kind;  // a result's kind, a progress's operation
  };

  explicit RecordingReporter(bool live = false) : live_(live) {}

  void progress(const Progress& progress) override {
    progresses.push_back(progress);
    events.push_back({"progress", progress.event, progress.operation});
  }
  void progress_done(std::string_view operation) override {
    events.push_back({"progress_done", std::string(operation), std::string(operation)});
  }
  void note(std::string_view line) override { events.push_back({"note", std::string(line), ""}); }
  void warning(std::string_view line) override { events.push_back({"warning", std::string(line), ""}); }
  void result(const Result& result) override {
    results.push_back(result);
    events.push_back({"result", result.text, result.kind});
  }
  [[nodiscard]] bool live() const override { return live_; }

  // The lines of every event of `type` (notes, warnings) or the texts of every result, joined as a console shows
  // them.
  [[nodiscard]] std::string text_of(std::string_view type) const {
    std::string text;
    for (const Event& event : events) {
      if (event.type != type) continue;
      text += event.text;
      if (type != "result") text += '\n';
    }
    return text;
  }

  std::vector<Event> events;
  std::vector<Progress> progresses;
  std::vector<Result> results;

 private:
  bool live_ = false;
};

}  // namespace cosched::test_support
