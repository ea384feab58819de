#include "cluster_batch.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "cosched/sched/schedule_document.hpp"
#include "support/files.hpp"

namespace cosched::slurm_test {

namespace {

std::string node_file(int node, const std::string& suffix) { return fmt::format("node-{:03d}.{}", node, suffix); }

}  // namespace

void ClusterBatch::SetUp() {
  COSCHED_REQUIRE_SLURM_CLUSTER(kNodes);
  for (const char* program : {"cosched", "slurm_probe"}) {
    ASSERT_TRUE(fs::exists(test_support::built_program(program))) << program << " is not built";
  }
  dir_ = test_support::scratch_dir();
  plan_ = dir_ / "plan";
  record_ = dir_ / "probe-record.txt";
  hosts_ = cluster_hosts();
  ASSERT_GE(hosts_.size(), static_cast<std::size_t>(kNodes));
  hosts_.resize(kNodes);
}

void ClusterBatch::plan_batch(const std::vector<std::string>& probe_flags) {
  // Nodes of 2 cores (the local nodes' CPUs); durations differ so that the partition has something to balance.
  nlohmann::json tasks = nlohmann::json::array();
  for (int j = 0; j < kTasks; ++j) {
    const std::string id = "t" + std::to_string(j);
    std::vector<std::string> command{test_support::built_program("slurm_probe").string(), "--id", id, "--record",
                                     record_.string(), "--ms", "100"};
    command.insert(command.end(), probe_flags.begin(), probe_flags.end());
    const double one_core = 0.2 + 0.05 * (j % 4);
    tasks.push_back({{"id", id}, {"times", {nullptr, one_core, one_core * 0.6}}, {"command", command}});
  }
  const nlohmann::json instance{{"resources", {{{"name", "cores"}, {"capacity", 2}}}}, {"tasks", tasks}};
  test_support::write_file(dir_ / "inst.json", instance.dump(2));
  const CommandResult planned = test_support::run_program(
      "cosched", fmt::format("plan --instance inst.json --algorithm t-list-lpt --nodes {} --output plan", kNodes), dir_);
  ASSERT_EQ(planned.exit_code, 0) << planned.err;
  for (int node = 0; node < kNodes; ++node) ASSERT_TRUE(fs::exists(plan_ / node_file(node, "schedule.json")));
}

std::string ClusterBatch::launch_command(const std::string& flags) const {
  return fmt::format("salloc --nodes={} --exclusive --nodelist={},{},{} {} launch plan --slurm {}", kNodes, hosts_[0],
                     hosts_[1], hosts_[2], cosched_program(), flags);
}

CommandResult ClusterBatch::launch(const std::string& flags) const {
  return run_in_cluster(launch_command(flags), dir_, 120);
}

nlohmann::json ClusterBatch::report() const {
  const CommandResult result = test_support::run_program("cosched", "report plan --json", dir_);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return nlohmann::json::parse(result.out, nullptr, false);
}

std::vector<std::string> ClusterBatch::planned_on(int node) const {
  std::vector<std::string> ids;
  for (const auto& entry : sched::load_schedule_document(plan_ / node_file(node, "schedule.json")).tasks) {
    ids.push_back(entry.id);
  }
  return ids;
}

launcher::JournalReplay ClusterBatch::journal_of(int node) const {
  return launcher::replay_journal(plan_ / node_file(node, "journal.jsonl"));
}

std::vector<std::string> ClusterBatch::journal_slurm_nodes(int node) const {
  std::vector<std::string> nodes;
  for (const auto& segment : journal_of(node).segments) {
    nodes.push_back(segment.header.slurm ? segment.header.slurm->node : "(not in a Slurm step)");
  }
  return nodes;
}

std::map<std::string, std::vector<ProbeRun>> ClusterBatch::probe_runs() const {
  std::map<std::string, std::vector<ProbeRun>> runs;
  std::istringstream lines(test_support::read_text(record_));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string id;
    ProbeRun run;
    words >> id >> run.node >> run.job >> run.step;
    runs[id].push_back(run);
  }
  return runs;
}

void ClusterBatch::expect_every_task_once_on_its_node() const {
  const auto runs = probe_runs();
  const nlohmann::json merged = report();
  ASSERT_TRUE(merged.is_object()) << "cosched report plan --json printed no JSON object";
  EXPECT_EQ(merged["nodes"], kNodes);
  EXPECT_EQ(merged["tasks_completed"], kTasks);
  EXPECT_EQ(merged["tasks_failed"], 0);
  ASSERT_TRUE(merged["rows"].is_array());
  ASSERT_EQ(merged["rows"].size(), static_cast<std::size_t>(kNodes));

  std::set<std::string> all_ids;
  for (int node = 0; node < kNodes; ++node) {
    SCOPED_TRACE("plan node " + std::to_string(node) + " on " + hosts_[node]);
    const auto planned = planned_on(node);
    const nlohmann::json& row = merged["rows"][node];
    EXPECT_EQ(row["node"], node);
    EXPECT_EQ(row["slurm_node"], hosts_[node]);
    EXPECT_EQ(row["tasks_completed"], planned.size());
    auto reported = row["task_ids"].get<std::vector<std::string>>();
    std::sort(reported.begin(), reported.end());
    auto sorted_planned = planned;
    std::sort(sorted_planned.begin(), sorted_planned.end());
    EXPECT_EQ(reported, sorted_planned);

    for (const auto& header_node : journal_slurm_nodes(node)) EXPECT_EQ(header_node, hosts_[node]);
    const auto journal = journal_of(node);
    for (const auto& id : planned) {
      EXPECT_TRUE(all_ids.insert(id).second) << id << " is planned on two nodes";
      const auto task = std::find_if(journal.tasks.begin(), journal.tasks.end(),
                                     [&](const launcher::TaskReplay& t) { return t.id == id; });
      ASSERT_NE(task, journal.tasks.end()) << id << " is not in its node's journal";
      EXPECT_TRUE(task->completed()) << id;
      const auto it = runs.find(id);
      ASSERT_NE(it, runs.end()) << id << " never completed (no probe record)";
      ASSERT_EQ(it->second.size(), 1U) << id << " completed " << it->second.size() << " times";
      EXPECT_EQ(it->second.front().node, hosts_[node]) << id << " ran on another node than its plan's";
    }
  }
  EXPECT_EQ(all_ids.size(), static_cast<std::size_t>(kTasks)) << "the plan lost tasks";
  EXPECT_EQ(runs.size(), static_cast<std::size_t>(kTasks)) << "a task that is not in the plan ran";
}

}  // namespace cosched::slurm_test
