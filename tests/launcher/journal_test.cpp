// The journal file: one typed event per line; the reader tolerates (and reports) a cut-short last line only, and
// a writer reopening a journal cuts that partial line off before appending.
#include "cosched/launcher/journal/file.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "cosched/common/error.hpp"
#include "test_support.hpp"

namespace cosched::launcher {
namespace {

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

BatchStart header_for(const std::string& host) {
  BatchStart header;
  header.host = host;
  return header;
}

TEST(Journal, WritesOneLinePerEventAndReadsThemBack) {
  const auto path = testing::scratch_dir("journal-roundtrip") / "run.jsonl";
  {
    JournalWriter writer(path);
    writer.append(header_for("h"));
    TaskStart start;
    start.task = "t0";
    start.t = 0.5;
    writer.append(start);
    TaskEnd end;
    end.task = "t0";
    end.status = sim::TaskStatus::ok;
    writer.append(end);
  }
  const std::string text = read_text(path);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
  const JournalContents contents = read_journal(path);
  ASSERT_EQ(contents.events.size(), 3U);
  EXPECT_EQ(std::get<BatchStart>(contents.events[0].event).host, "h");
  EXPECT_EQ(std::get<TaskStart>(contents.events[1].event).task, "t0");
  EXPECT_DOUBLE_EQ(std::get<TaskStart>(contents.events[1].event).t, 0.5);
  EXPECT_EQ(std::get<TaskEnd>(contents.events[2].event).status, sim::TaskStatus::ok);
  EXPECT_EQ(contents.events[2].line, 3U);
  EXPECT_FALSE(contents.truncated_tail.has_value());
}

TEST(Journal, ATruncatedLastLineIsReportedAndIgnored) {
  const auto path = testing::scratch_dir("journal-truncated") / "run.jsonl";
  write_text(path, "{\"event\":\"start\",\"task\":\"a\",\"t\":0}\n{\"event\":\"end\",\"task\":\"a\",\"sta");
  const JournalContents contents = read_journal(path);
  ASSERT_EQ(contents.events.size(), 1U);
  ASSERT_TRUE(contents.truncated_tail.has_value());
  EXPECT_EQ(contents.truncated_line, 2U);
  EXPECT_EQ(*contents.truncated_tail, "{\"event\":\"end\",\"task\":\"a\",\"sta");
}

TEST(Journal, ABrokenLineBeforeTheLastIsAnInputErrorNamingTheLine) {
  const auto path = testing::scratch_dir("journal-broken") / "run.jsonl";
  write_text(path, "{\"event\":\"start\",\"task\":\"a\",\"t\":0}\n{\"event\":\n{\"event\":\"end\",\"task\":\"a\"}\n");
  try {
    (void)read_journal(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("run.jsonl:2"), std::string::npos) << e.what();
  }
}

TEST(Journal, EventsWithoutEventOrTaskFieldsAreRejected) {
  const auto dir = testing::scratch_dir("journal-fields");
  write_text(dir / "a.jsonl", "{\"task\":\"a\"}\n");
  EXPECT_THROW((void)read_journal(dir / "a.jsonl"), InputError);
  write_text(dir / "b.jsonl", "{\"event\":\"end\",\"status\":\"ok\",\"t\":1}\n");
  EXPECT_THROW((void)read_journal(dir / "b.jsonl"), InputError);
  write_text(dir / "c.jsonl", "[1,2]\n");
  EXPECT_THROW((void)read_journal(dir / "c.jsonl"), InputError);
}

TEST(Journal, ReopeningCutsThePartialLineBeforeAppending) {
  const auto path = testing::scratch_dir("journal-repair") / "run.jsonl";
  write_text(path, "{\"event\":\"start\",\"task\":\"a\",\"t\":0}\n{\"event\":\"end\",\"ta");
  {
    JournalWriter writer(path);
    EXPECT_EQ(writer.repaired_bytes(), std::string("{\"event\":\"end\",\"ta").size());
    writer.append(header_for("h"));
  }
  const JournalContents contents = read_journal(path);
  ASSERT_EQ(contents.events.size(), 2U);
  EXPECT_TRUE(std::holds_alternative<BatchStart>(contents.events[1].event));
  EXPECT_FALSE(contents.truncated_tail.has_value());
}

TEST(Journal, AMissingJournalIsAnInputError) {
  EXPECT_THROW((void)read_journal("/nonexistent/cosched/run.jsonl"), InputError);
}

}  // namespace
}  // namespace cosched::launcher
