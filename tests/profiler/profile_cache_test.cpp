// The profile cache (issue #24): its node folders, named after the node's fingerprint, and the node lock: a second
// holder waits, told who holds it; and when a kind's knowledge file found there is set aside (its format:
// learning_test.cpp).
#include "cosched/profiler/profile_cache.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "cosched/common/error.hpp"
#include "cosched/common/file_lock.hpp"
#include "cosched/profiler/knowledge_store.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

NodeFingerprint node_named(const std::string& host) { return {host, "Some CPU", 1, "emulated", 5.0}; }

CachedTask triad_task() {
  CachedTask task;
  task.kernel = "triad";
  task.footprint_bytes = 64ULL << 20;
  return task;
}

TEST(ProfileCacheNode, FoldersAreNamedAfterTheHostAndTheFingerprint) {
  const NodeFingerprint a = node_named("n1"), b = node_named("n1/../x");
  EXPECT_EQ(a.folder_name().substr(0, 3), "n1-");
  EXPECT_EQ(b.folder_name().find('/'), std::string::npos);
  NodeFingerprint ratio = a;
  ratio.emulation_ratio = 3.0;
  EXPECT_NE(a.digest(), ratio.digest()) << "another emulation ratio is another node for a profile";
  CachedTask smaller = triad_task();
  smaller.footprint_bytes = 32ULL << 20;
  EXPECT_NE(triad_task().file_name(), smaller.file_name());
}

// A knowledge file is used only when it is of this node and of the task its name says, it parses, and a command's
// program is the one measured; otherwise the kind starts afresh and the lookup says why (issue 41: a file holding
// another task than its name says was used).
struct SetAsideCase {
  std::string name;
  std::function<void(KindKnowledge&)> damage;  // applied to a good file's knowledge before it is written
  std::string raw;                             // else: this text is the file
  std::string said;                            // what the lookup's note says
};

class KnowledgeFileSetAside : public ::testing::TestWithParam<SetAsideCase> {};

TEST_P(KnowledgeFileSetAside, AFileNotOfThisNodeAndTaskOrDamagedStartsAfreshAndSaysWhy) {
  const ProfileCache cache(testing::scratch_dir("knowledge-lookup"), node_named("n1"));
  CachedTask sh;
  sh.argv = {"/bin/sh", "-c", "exit 0"};
  KindKnowledge good;
  good.node = cache.node();
  good.task = sh;
  good.program = program_stamp("/bin/sh");
  good.add({{1, 0, 1.0, 0.5}, RunSource::profiled, "2026-11-28T12:00:00Z"});
  const std::filesystem::path path = look_up_knowledge(cache, sh).path;
  store_knowledge(cache, good);
  const KnowledgeLookup used = look_up_knowledge(cache, sh);
  ASSERT_EQ(used.note, "") << "the case's good file is used";
  ASSERT_EQ(used.knowledge.runs.size(), 1U);

  KindKnowledge damaged = good;
  if (GetParam().damage) GetParam().damage(damaged);
  testing::write_file(path, GetParam().raw.empty() ? kind_knowledge_to_json(damaged) : GetParam().raw);
  const KnowledgeLookup found = look_up_knowledge(cache, sh);
  EXPECT_NE(found.note.find(GetParam().said), std::string::npos) << found.note;
  EXPECT_TRUE(found.knowledge.runs.empty()) << "nothing of the file is used";
  EXPECT_EQ(found.knowledge.task, sh);
  EXPECT_EQ(found.knowledge.node, cache.node());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, KnowledgeFileSetAside,
    ::testing::Values(
        SetAsideCase{"AnotherNode", [](KindKnowledge& k) { k.node = node_named("n2"); }, "", "another node"},
        SetAsideCase{"AnotherTask", [](KindKnowledge& k) { k.task.argv = {"/bin/sh", "-c", "exit 1"}; }, "",
                     "another task than its name says"},
        SetAsideCase{"AnotherPlacement", [](KindKnowledge& k) { k.task.placement = "bind"; }, "",
                     "another task than its name says"},
        SetAsideCase{"RebuiltProgram", [](KindKnowledge& k) { k.program->modified_ns += 1; }, "",
                     "changed since it was measured"},
        SetAsideCase{"Truncated", nullptr, "{\"format\": \"cosched task knowledge\", \"format_ver", "unreadable"}),
    [](const ::testing::TestParamInfo<SetAsideCase>& param_info) { return param_info.param.name; });

// Two holders of a node's lock: the second waits, and is told who holds it (the first's pid) before it blocks.
TEST(FileLockTest, ASecondHolderWaitsAndIsToldWhoHoldsIt) {
  const auto path = testing::scratch_dir() / "lock";
  const auto locked = path.parent_path() / "locked", release = path.parent_path() / "release";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    {
      const FileLock held = FileLock::acquire(path, nullptr);
      std::ofstream(locked) << "yes";
      while (!std::filesystem::exists(release)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::_exit(0);
  }
  while (!std::filesystem::exists(locked)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::string holder;
  // Told before it blocks: only then may the holder let go, so the wait is certain, not a matter of timing.
  const FileLock mine = FileLock::acquire(path, [&](const std::string& note) {
    holder = note;
    std::ofstream(release) << "now";
  });
  EXPECT_NE(holder.find("pid " + std::to_string(child) + " "), std::string::npos) << holder;
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace
}  // namespace cosched::profiler
