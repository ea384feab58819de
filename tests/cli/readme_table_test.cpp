// README.md's table, run in order as written (issue #24): its calibrate, kernel-profile, instance, plan, launch and
// report rows are taken from README.md itself — the first code span of each row — so the test fails as soon as the
// README drifts from what the tools do. They run in a scratch folder that sees the repository's configs/ and has
// the built programs in PATH, as a user runs them from a clone. Every step must succeed, the instance must not warn
// that its profile lacks fixed costs, launch and report must show both predictions (paper model and
// contention-aware, the schedule carrying the bandwidth model), and the report must parse. Nothing is timed: the
// limit given to each step only ends a hang.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/programs.hpp"

namespace cosched::cli {
namespace {

namespace fs = std::filesystem;
using test_support::CommandResult;

// The chain, in the order the table lists it (the first row of each subcommand).
constexpr std::array<const char*, 6> kChain{"calibrate", "profile", "instance", "plan", "launch", "report"};
constexpr int kHangLimitSeconds = 900;

struct TableRow {
  std::size_t index = 0;  // the row's place in the table
  std::string command;    // its first code span, `\|` read as `|` (what the reader sees)
};

// The first code span of every row of the README's tables that starts with one ("| `...` | ... |").
std::vector<TableRow> table_commands(const std::string& readme) {
  std::vector<TableRow> rows;
  std::size_t line_start = 0;
  while (line_start < readme.size()) {
    std::size_t line_end = readme.find('\n', line_start);
    if (line_end == std::string::npos) line_end = readme.size();
    const std::string line = readme.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    if (line.rfind("| `", 0) != 0) continue;
    const std::size_t close = line.find('`', 3);
    if (close == std::string::npos) continue;
    std::string command = line.substr(3, close - 3);
    for (std::size_t at = command.find("\\|"); at != std::string::npos; at = command.find("\\|", at + 1)) {
      command.erase(at, 1);
    }
    rows.push_back({rows.size(), command});
  }
  return rows;
}

// The first row whose command is `cosched SUBCOMMAND ...`, or none.
const TableRow* row_of(const std::vector<TableRow>& rows, const std::string& subcommand) {
  const std::string prefix = "cosched " + subcommand + " ";
  for (const TableRow& row : rows) {
    if (row.command.rfind(prefix, 0) == 0) return &row;
  }
  return nullptr;
}

// Both predictions in a launch summary or a report: the paper model's and the contention-aware one, with its error.
void expect_both_predictions(const CommandResult& result, const std::string& step) {
  EXPECT_NE(result.out.find("paper model: each task at its profiled time"), std::string::npos) << step << result.out;
  EXPECT_NE(result.out.find("  contention-aware     "), std::string::npos) << step << result.out;
  EXPECT_NE(result.out.find("(contention-aware)"), std::string::npos) << step << result.out;
  EXPECT_EQ(result.out.find("unavailable"), std::string::npos) << step << result.out;
}

TEST(ReadmeTable, TheToolkitRowsRunInOrderAsWritten) {
  if (!fs::exists(test_support::built_program("cosched")) || !fs::exists(test_support::built_program("stream_bench"))) {
    GTEST_SKIP() << "bin/cosched or bin/stream_bench is not built";
  }
  const std::vector<TableRow> rows = table_commands(test_support::read_text(fs::path(COSCHED_SOURCE_DIR) / "README.md"));
  std::vector<std::string> chain;
  std::size_t previous = 0;
  for (const char* subcommand : kChain) {
    const TableRow* row = row_of(rows, subcommand);
    ASSERT_NE(row, nullptr) << "README.md's table has no row `cosched " << subcommand << " ...`";
    ASSERT_TRUE(chain.empty() || row->index > previous)
        << "README.md's table lists `cosched " << subcommand << "` before the step it needs: " << row->command;
    previous = row->index;
    chain.push_back(row->command);
  }

  const fs::path dir = test_support::scratch_dir();
  fs::create_directory_symlink(fs::path(COSCHED_SOURCE_DIR) / "configs", dir / "configs");
  const std::string path = "env PATH='" + test_support::built_program("cosched").parent_path().string() + "':\"$PATH\" ";
  for (std::size_t k = 0; k < chain.size(); ++k) {
    const std::string step = "`" + chain[k] + "`:\n";
    const CommandResult result = test_support::run_shell(path + chain[k], dir, kHangLimitSeconds);
    ASSERT_EQ(result.exit_code, 0) << step << result.out << result.err;
    const std::string subcommand = kChain[k];
    if (subcommand == "instance") {
      EXPECT_EQ(result.err.find("no fixed cost"), std::string::npos)
          << step << "the table's profile must predict launched tasks:\n" << result.err;
    }
    if (subcommand == "launch") {
      EXPECT_NE(result.out.find("predictions: paper model and contention-aware"), std::string::npos)
          << step << result.out;
      expect_both_predictions(result, step);
    }
    if (subcommand == "report") {
      expect_both_predictions(result, step);
      const CommandResult json = test_support::run_shell(path + chain[k] + " --json", dir, kHangLimitSeconds);
      ASSERT_EQ(json.exit_code, 0) << json.err;
      const nlohmann::json report = nlohmann::json::parse(json.out, nullptr, false);
      ASSERT_FALSE(report.is_discarded()) << "`" << chain[k] << " --json` is not JSON:\n" << json.out;
      EXPECT_TRUE(report["predicted_makespan"].is_number()) << json.out;
      EXPECT_TRUE(report["predicted_makespan_contention"].is_number()) << json.out;
      EXPECT_TRUE(report["observed_makespan"].is_number()) << json.out;
      EXPECT_GT(report["tasks_completed"].get<int>(), 0) << json.out;
      EXPECT_EQ(report["tasks_failed"].get<int>(), 0) << json.out;
    }
  }
}

}  // namespace
}  // namespace cosched::cli
