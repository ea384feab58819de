// The two reporters of the reporter seam (workflow/reporters.hpp): what the console prints of each kind of event,
// live on a terminal or as plain lines, which stream each goes to, and JSON lines that parse back to the events.
#include "cosched/workflow/reporters.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"

namespace cosched::workflow {
namespace {

// A temporary file to stand for a stream, read back whole.
class Capture {
 public:
  Capture() : file_(std::tmpfile(), &std::fclose) {}
  [[nodiscard]] std::FILE* stream() const { return file_.get(); }
  [[nodiscard]] std::string text() const {
    std::fflush(file_.get());
    std::rewind(file_.get());
    std::string text;
    for (int c = std::fgetc(file_.get()); c != EOF; c = std::fgetc(file_.get())) text += static_cast<char>(c);
    return text;
  }

 private:
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
};

Progress counter(std::size_t done, std::size_t total, const std::string& event, double eta_s) {
  Progress progress;
  progress.operation = "profile";
  progress.style = ProgressStyle::counter;
  progress.done = done;
  progress.total = total;
  progress.eta_s = eta_s;
  progress.event = event;
  return progress;
}

Progress timeline(double elapsed_s, const std::string& event, const std::string& state) {
  Progress progress;
  progress.operation = "launch";
  progress.style = ProgressStyle::timeline;
  progress.elapsed_s = elapsed_s;
  progress.event = event;
  progress.state = state;
  progress.redraw = event.empty();
  return progress;
}

TEST(FormatDuration, HoursMinutesSeconds) {
  EXPECT_EQ(format_duration(0.4), "0s");
  EXPECT_EQ(format_duration(59.6), "1m00s");
  EXPECT_EQ(format_duration(185), "3m05s");
  EXPECT_EQ(format_duration(3720), "1h02m");
  EXPECT_EQ(format_duration(-3), "0s");
}

TEST(ConsoleReporter, OffATerminalEveryEventIsAPlainLine) {
  Capture out;
  {
    ConsoleReporter console({out.stream(), out.stream(), out.stream()}, false);
    console.progress(counter(1, 2, "triad 64MiB cores=2 chunks=5 0.5s", 0.5));
    console.progress(counter(2, 2, "triad 64MiB cores=2 chunks=6 0.25s", 0.0));
    console.progress_done("profile");
    console.progress(timeline(1.5, "ended a (ok)", "done 1/2 | ETA 1.0 s"));
    console.progress(timeline(1.7, "", "done 1/2 | ETA 0.8 s"));  // a redraw: nothing off a terminal
    console.note("a note");
    console.result({"table", "a\nb\n", nullptr});
  }
  EXPECT_EQ(out.text(),
            "1/2 triad 64MiB cores=2 chunks=5 0.5s ETA 1s\n"
            "2/2 triad 64MiB cores=2 chunks=6 0.25s ETA 0s\n"
            "    1.50 s  ended a (ok)                         | done 1/2 | ETA 1.0 s\n"
            "a note\n"
            "a\nb\n");
}

TEST(ConsoleReporter, OnATerminalProgressIsOneLineRedrawnInPlaceAndEndedOnce) {
  Capture out;
  {
    ConsoleReporter console({out.stream(), out.stream(), out.stream()}, true);
    EXPECT_TRUE(console.live());
    console.progress(counter(1, 4, "ddot 1MiB cores=1 chunks=0 0.5s", 1.5));
    console.note("between");  // ends the live line first
    console.progress(timeline(0.5, "", "done 0/1"));
    console.progress_done("launch");
    console.progress_done("launch");  // nothing left to end
  }
  const std::string text = out.text();
  EXPECT_EQ(text.front(), '\r');
  EXPECT_NE(text.find("[#######.......................] 1/4 ETA     2s  ddot"), std::string::npos) << text;
  EXPECT_NE(text.find("\nbetween\n\rdone 0/1\x1b[K\n"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.find("\n\n"), std::string::npos) << "one newline per live line: " << text;
}

TEST(ConsoleReporter, EachKindGoesToItsStreamAndANullStreamDropsIt) {
  Capture progress, messages, results;
  {
    ConsoleReporter console({progress.stream(), messages.stream(), results.stream()}, false);
    console.progress(counter(1, 1, "x", 0.0));
    console.warning("cosched: warning: w");
    console.result({"r", "result\n", nullptr});
    ConsoleReporter quiet({nullptr, nullptr, nullptr}, true);
    EXPECT_FALSE(quiet.live()) << "no progress stream, nothing to redraw";
    quiet.progress(counter(1, 1, "x", 0.0));
    quiet.note("n");
    quiet.result({"r", "dropped\n", nullptr});
  }
  EXPECT_EQ(progress.text(), "1/1 x ETA 0s\n");
  EXPECT_EQ(messages.text(), "cosched: warning: w\n");
  EXPECT_EQ(results.text(), "result\n");
}

TEST(JsonLinesReporter, EveryEventIsOneJsonObjectPerLine) {
  Capture out;
  {
    JsonLinesReporter json(out.stream());
    Progress progress = counter(3, 12, "triad", 7.5);
    progress.fields = {{"cores", 2}};
    json.progress(progress);
    json.progress_done("profile");
    json.note("a note");
    json.warning("cosched: warning: w");
    json.result({"prediction", "predicted 1.0 s\n", {{"predicted_makespan_paper", 1.0}}});
  }
  std::istringstream lines(out.text());
  std::vector<nlohmann::json> events;
  for (std::string line; std::getline(lines, line);) events.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(events.size(), 5U);
  EXPECT_EQ(events[0].at("event"), "progress");
  EXPECT_EQ(events[0].at("operation"), "profile");
  EXPECT_EQ(events[0].at("style"), "counter");
  EXPECT_EQ(events[0].at("done"), 3);
  EXPECT_EQ(events[0].at("total"), 12);
  EXPECT_EQ(events[0].at("eta_s"), 7.5);
  EXPECT_EQ(events[0].at("fields").at("cores"), 2);
  EXPECT_EQ(events[1].at("event"), "progress_done");
  EXPECT_EQ(events[2].at("text"), "a note");
  EXPECT_EQ(events[3].at("event"), "warning");
  EXPECT_EQ(events[4].at("kind"), "prediction");
  EXPECT_EQ(events[4].at("data").at("predicted_makespan_paper"), 1.0);
  for (const auto& event : events) EXPECT_GE(event.at("t").get<double>(), 0.0);
}

TEST(MakeReporter, ConsoleOrJsonByName) {
  Capture out;
  EXPECT_NE(dynamic_cast<JsonLinesReporter*>(make_reporter("json", {}, out.stream()).get()), nullptr);
  EXPECT_NE(dynamic_cast<ConsoleReporter*>(make_reporter("console", {nullptr, nullptr, out.stream()}, nullptr).get()),
            nullptr);
  EXPECT_THROW((void)make_reporter("xml", {}, out.stream()), UsageError);
}

}  // namespace
}  // namespace cosched::workflow
