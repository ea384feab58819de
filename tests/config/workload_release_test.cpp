// Online node workloads: a task's release time and user, read from TOML (shared by an entry's copies, or spaced
// by release_every_s) and JSON, written back only when set so that older files read and write as before. Their
// errors are among workload_test.cpp's.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cosched/config/workload.hpp"

namespace cosched::config {
namespace {

TEST(WorkloadRelease, TomlEntriesReleaseTheirCopiesAndNameTheirUser) {
  const auto workload = parse_workload_toml(R"(
[[tasks]]
kernel = "triad"
footprint_mib = 64
count = 3
release_s = 2.5
release_every_s = 1
user = "alice"
[[tasks]]
kernel = "write"
footprint_mib = 8
count = 2
release_s = 10
[[tasks]]
kernel = "ddot"
footprint_mib = 8
)",
                                            "w.toml");
  ASSERT_EQ(workload.tasks.size(), 6U);
  const std::vector<double> releases{2.5, 3.5, 4.5, 10.0, 10.0, 0.0};
  for (std::size_t k = 0; k < releases.size(); ++k) EXPECT_EQ(workload.tasks[k].release_s, releases[k]) << k;
  EXPECT_EQ(workload.tasks[2].user, "alice");
  EXPECT_EQ(workload.tasks[3].user, "");
}

TEST(WorkloadRelease, JsonReadsAndWritesThemOnlyWhenSet) {
  const auto workload = parse_workload_json(
      R"({"tasks": [{"id": "a", "command": ["/bin/true"], "release_s": 1.25, "user": "bob"},
                    {"id": "b", "kernel": "triad", "footprint_bytes": 8, "passes": 1}]})",
      "w.json");
  EXPECT_EQ(workload.tasks[0].release_s, 1.25);
  EXPECT_EQ(workload.tasks[0].user, "bob");
  EXPECT_EQ(workload.tasks[1].release_s, 0.0);
  const nlohmann::json json = workload;
  EXPECT_EQ(json.at("tasks").at(0).at("release_s"), 1.25);
  EXPECT_EQ(json.at("tasks").at(0).at("user"), "bob");
  // A task without them is written exactly as before they existed.
  EXPECT_EQ(json.at("tasks").at(1).dump(),
            R"({"footprint_bytes":8,"id":"b","kernel":"triad","passes":1})");
  EXPECT_EQ(parse_workload_json(json.dump(), "again.json").tasks, workload.tasks);
}

}  // namespace
}  // namespace cosched::config
