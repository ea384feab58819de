// The profile cache (issue #24): its entry format (one parser, one writer: a round trip, and every refusal named),
// and what a lookup says of an entry — hit, miss, stale (another calibration, another version, fewer cores, a
// program changed since), foreign (another node's only), corrupt (unreadable, or not the file's node or task) —
// and the node lock: a second holder waits, told who holds it.
#include "cosched/profiler/profile_cache.hpp"

#include <gtest/gtest.h>

#include "cosched/profiler/cached_profile.hpp"
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cosched/common/error.hpp"
#include "cosched/common/file_lock.hpp"
#include "cosched/common/version.hpp"
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

ProfileRow row_at(const CachedTask& task, unsigned cores, unsigned chunks, double time) {
  ProfileRow row;
  row.point = {task.row_kernel("cached"), task.footprint_bytes, cores, chunks};
  row.time_s = row.time_min_s = row.time_max_s = time;
  row.reps = 2;
  row.gbs = 1.5;
  row.fixed_s = 0.2;
  return row;
}

CacheEntry entry_for(const NodeFingerprint& node, const CachedTask& task, unsigned cores = 2) {
  CacheEntry entry;
  entry.cosched_version = COSCHED_VERSION;
  entry.date = "2026-11-25T12:00:00Z";
  entry.node = node;
  entry.calibration = "fnv1a64:00000000000000aa";
  entry.task = task;
  entry.measurer = "process";
  entry.passes = {1, 10};
  entry.reps = 2;
  entry.chunk_bytes = 16.0 * (1 << 20);
  entry.probe_cores = cores / 2;
  for (unsigned c = 1; c <= cores; ++c) {
    entry.rows.push_back(row_at(task, c, 0, 0.05 / c));
    entry.rows.push_back(row_at(task, c, 4, 0.02 / c));
  }
  return entry;
}

const CacheExpectation kExpected{"fnv1a64:00000000000000aa", 2};

TEST(ProfileCacheEntry, RoundTripsThroughItsOneWriterAndParser) {
  CachedTask command;
  command.argv = {"/bin/true", "--threads", "{threads}"};
  command.environment = {"A=1", "B=2"};
  command.placement = "preferred";
  command.footprint_bytes = 0;
  for (const CachedTask& task : {triad_task(), command}) {
    CacheEntry entry = entry_for(node_named("n1"), task);
    if (!task.is_stream()) entry.program = ProgramStamp{123, 456789};
    const CacheEntry back = parse_cache_entry(cache_entry_to_json(entry), "e.json");
    EXPECT_EQ(back.node, entry.node);
    EXPECT_EQ(back.task, entry.task);
    EXPECT_EQ(back.program, entry.program);
    EXPECT_EQ(back.calibration, entry.calibration);
    EXPECT_EQ(back.passes, entry.passes);
    ASSERT_EQ(back.rows.size(), entry.rows.size());
    for (std::size_t i = 0; i < back.rows.size(); ++i) {
      EXPECT_EQ(back.rows[i].point, entry.rows[i].point);
      EXPECT_EQ(back.rows[i].time_s, entry.rows[i].time_s);  // bit-exact
      EXPECT_EQ(back.rows[i].fixed_s, entry.rows[i].fixed_s);
    }
    EXPECT_EQ(cache_entry_to_json(back), cache_entry_to_json(entry));
  }
}

std::string refusal(const std::string& text) {
  try {
    (void)parse_cache_entry(text, "e.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// Each change of a valid entry's text that the writer would never make is refused, naming what is wrong.
TEST(ProfileCacheEntry, RefusesWhatItsWriterWouldNotWrite) {
  const std::string good = cache_entry_to_json(entry_for(node_named("n1"), triad_task()));
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  EXPECT_NE(refusal("{").find("not valid JSON"), std::string::npos);
  EXPECT_NE(refusal(with("\"cosched profile cache entry\"", "\"a profile\"")).find("\"format\""), std::string::npos);
  EXPECT_NE(refusal(with("\"format_version\": 1", "\"format_version\": 2")).find("format_version"), std::string::npos);
  EXPECT_NE(refusal(with("\"kernel\": \"triad\"", "\"kernel\": \"fft\"")).find("unknown kernel 'fft'"),
            std::string::npos);
  EXPECT_NE(refusal(with("\"time_s\": 0.025", "\"time_s\": -1")).find("time_s"), std::string::npos);
  EXPECT_NE(refusal(with("\"cores\": 2", "\"cores\": 1")).find("twice"), std::string::npos);
  EXPECT_NE(refusal(with("\"passes\": [\n  1,\n  10\n ]", "\"passes\": [10, 1]")).find("larger"), std::string::npos);
  EXPECT_NE(refusal(with("\"chunk_bytes\": 16777216.0", "\"chunk_bytes\": 0")).find("chunk_bytes"), std::string::npos);
  EXPECT_NE(refusal(with("\"fixed_s\": 0.2", "\"fixed_s\": \"soon\"")).find("fixed_s"), std::string::npos);
}

class ProfileCacheLookup : public ::testing::Test {
 protected:
  std::filesystem::path root_ = testing::scratch_dir();
  ProfileCache cache_{root_, node_named("n1")};
};

TEST_F(ProfileCacheLookup, AMissThenAHitOnceStored) {
  const CacheLookup before = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(before.state, CacheState::miss) << before.reason;
  EXPECT_FALSE(before.entry);
  const FileLock lock = cache_.lock(nullptr);
  cache_.store(entry_for(node_named("n1"), triad_task()));
  const CacheLookup after = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(after.state, CacheState::hit) << after.reason;
  ASSERT_TRUE(after.entry);
  EXPECT_EQ(after.entry->rows.size(), 4U);
  EXPECT_EQ(after.path.parent_path().parent_path(), cache_.node_folder());
}

TEST_F(ProfileCacheLookup, StaleUnderAnotherCalibrationVersionOrFewerCores) {
  const FileLock lock = cache_.lock(nullptr);
  cache_.store(entry_for(node_named("n1"), triad_task()));
  const CacheLookup recalibrated = cache_.lookup(triad_task(), {"fnv1a64:00000000000000bb", 2});
  EXPECT_EQ(recalibrated.state, CacheState::stale);
  EXPECT_NE(recalibrated.reason.find("another calibration"), std::string::npos) << recalibrated.reason;
  const CacheLookup more_cores = cache_.lookup(triad_task(), {kExpected.calibration, 4});
  EXPECT_EQ(more_cores.state, CacheState::stale);
  EXPECT_NE(more_cores.reason.find("up to 2 cores, 4 are planned"), std::string::npos) << more_cores.reason;
  CacheEntry older = entry_for(node_named("n1"), triad_task());
  older.cosched_version = "0.0.1";
  cache_.store(older);
  const CacheLookup old = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(old.state, CacheState::stale);
  EXPECT_NE(old.reason.find("cosched 0.0.1"), std::string::npos) << old.reason;
  EXPECT_FALSE(old.entry);
}

TEST_F(ProfileCacheLookup, StaleWhenTheProfiledProgramChanged) {
  const auto program = testing::write_file(root_ / "prog.sh", "#!/bin/sh\nexit 0\n");
  std::filesystem::permissions(program, std::filesystem::perms::owner_all);
  CachedTask command;
  command.argv = {program.string()};
  command.placement = "preferred";
  CacheEntry entry = entry_for(node_named("n1"), command);
  entry.program = program_stamp(program);
  entry.probe_cores.reset();
  const FileLock lock = cache_.lock(nullptr);
  cache_.store(entry);
  // An entry from before the memory-demand probe (no probe_cores) is stale where a probe can run (2 cores and more),
  // a STREAM task's as a command's.
  const CacheLookup unprobed = cache_.lookup(command, kExpected);
  EXPECT_EQ(unprobed.state, CacheState::stale);
  EXPECT_NE(unprobed.reason.find("before commands had their memory-demand probe"), std::string::npos)
      << unprobed.reason;
  CacheEntry stream_entry = entry_for(node_named("n1"), triad_task());
  stream_entry.probe_cores.reset();
  cache_.store(stream_entry);
  const CacheLookup stream_unprobed = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(stream_unprobed.state, CacheState::stale);
  EXPECT_NE(stream_unprobed.reason.find("before STREAM tasks had"), std::string::npos) << stream_unprobed.reason;
  entry.probe_cores = 1;
  cache_.store(entry);
  EXPECT_EQ(parse_cache_entry(cache_entry_to_json(entry), "e").probe_cores, std::optional<unsigned>(1));
  EXPECT_EQ(cache_.lookup(command, kExpected).state, CacheState::hit);
  testing::write_file(program, "#!/bin/sh\n# rebuilt: another size\nexit 0\n");
  const CacheLookup rebuilt = cache_.lookup(command, kExpected);
  EXPECT_EQ(rebuilt.state, CacheState::stale);
  EXPECT_NE(rebuilt.reason.find("changed since it was profiled"), std::string::npos) << rebuilt.reason;
}

TEST_F(ProfileCacheLookup, ForeignWhenOnlyAnotherNodeMeasuredIt) {
  const ProfileCache other(root_, node_named("n2"));
  {
    const FileLock lock = other.lock(nullptr);
    other.store(entry_for(node_named("n2"), triad_task()));
  }
  const CacheLookup found = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(found.state, CacheState::foreign);
  EXPECT_NE(found.reason.find(other.node().folder_name()), std::string::npos) << found.reason;
  EXPECT_FALSE(found.entry);
}

TEST_F(ProfileCacheLookup, CorruptWhenUnreadableOrNotTheFilesNodeOrTask) {
  const FileLock lock = cache_.lock(nullptr);
  const auto path = cache_.entry_path(triad_task());
  testing::write_file(path, "{\"format\": \"cosched profile cache entry\", \"rows\": [");
  const CacheLookup truncated = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(truncated.state, CacheState::corrupt);
  EXPECT_NE(truncated.reason.find("not valid JSON"), std::string::npos) << truncated.reason;
  // Another node's entry copied into this node's folder: never trusted.
  testing::write_file(path, cache_entry_to_json(entry_for(node_named("n2"), triad_task())));
  const CacheLookup copied = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(copied.state, CacheState::corrupt);
  EXPECT_NE(copied.reason.find("measured on node n2"), std::string::npos) << copied.reason;
  // Measured again and stored: a hit.
  cache_.store(entry_for(node_named("n1"), triad_task()));
  EXPECT_EQ(cache_.lookup(triad_task(), kExpected).state, CacheState::hit);
}

// Issue 41 item 11: a mutant that used an entry holding another task than its file name says was not caught (the
// test above checks the node only). Here the file of triad at 64 MiB holds triad at 32 MiB, and a command's file a
// STREAM task: neither is used.
TEST_F(ProfileCacheLookup, AnEntryHoldingAnotherTaskThanItsFileNameIsNotUsed) {
  const FileLock lock = cache_.lock(nullptr);
  CachedTask smaller = triad_task();
  smaller.footprint_bytes = 32ULL << 20;
  testing::write_file(cache_.entry_path(triad_task()), cache_entry_to_json(entry_for(node_named("n1"), smaller)));
  const CacheLookup found = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(found.state, CacheState::corrupt);
  EXPECT_FALSE(found.entry);
  EXPECT_NE(found.reason.find("another task than its file name says"), std::string::npos) << found.reason;
  CachedTask command;
  command.argv = {"/bin/true"};
  testing::write_file(cache_.entry_path(command), cache_entry_to_json(entry_for(node_named("n1"), triad_task())));
  EXPECT_EQ(cache_.lookup(command, kExpected).state, CacheState::corrupt);
}

// Issue 41 case 8: a damaged entry is found when it is looked up, before any measuring — a row marked failed (it
// was used as a hit) and an entry without a point the plan needs.
TEST_F(ProfileCacheLookup, AnEntryWithAFailedRowOrAMissingPointIsCorruptNotAHit) {
  const FileLock lock = cache_.lock(nullptr);
  const std::string good = cache_entry_to_json(entry_for(node_named("n1"), triad_task()));
  std::string failed = good;
  failed.replace(failed.find("\"reps\": 2", failed.find("\"rows\"")), 0, "\"status\": \"timeout\", ");  // a row's
  testing::write_file(cache_.entry_path(triad_task()), failed);
  const CacheLookup marked = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(marked.state, CacheState::corrupt);
  EXPECT_NE(marked.reason.find("a row marked \"timeout\""), std::string::npos) << marked.reason;
  CacheEntry lacking = entry_for(node_named("n1"), triad_task());
  lacking.rows.erase(lacking.rows.begin());  // cores=1 chunks=0
  testing::write_file(cache_.entry_path(triad_task()), cache_entry_to_json(lacking));
  const CacheLookup missing = cache_.lookup(triad_task(), kExpected);
  EXPECT_EQ(missing.state, CacheState::corrupt);
  EXPECT_NE(missing.reason.find("cores=1 chunks=0"), std::string::npos) << missing.reason;
  testing::write_file(cache_.entry_path(triad_task()), good);
  EXPECT_EQ(cache_.lookup(triad_task(), kExpected).state, CacheState::hit) << "the test's entry is otherwise good";
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

// `cosched run`'s options (issue 22 moved them out of the command into the profiler): the batch as launched on the platform
// and tier given, the node model calibrated quickly with the tier's backend when the cache needs one, no --node,
// no --reprofile unless the command sets them.
TEST(CachedProfileOptions, ForRunProfilesAsLaunchedAndCalibratesQuickly) {
  config::PlatformConfig platform;
  platform.cores = 3;
  platform.fast_chunks = 7;
  exec::TierSetup tier;
  tier.backend = "emulated";
  SilentReporter reporter;
  const auto options = CachedProfileOptions::for_run(platform, tier, 4, reporter);
  EXPECT_EQ(options.launched.platform.cores, 3U);
  EXPECT_EQ(options.launched.platform.fast_chunks, 7U);
  EXPECT_EQ(options.launched.tier.backend, "emulated");
  EXPECT_EQ(options.launched.reps, 4U);
  EXPECT_EQ(options.launched.stream_bench, exec::default_stream_bench_path());
  EXPECT_EQ(options.launched.reporter, &reporter);
  EXPECT_EQ(options.reporter, &reporter);
  EXPECT_TRUE(options.calibration.quick);
  EXPECT_EQ(options.calibration.tier_backend, "emulated");
  EXPECT_FALSE(options.node_file.has_value());
  EXPECT_FALSE(options.reprofile);
}

}  // namespace
}  // namespace cosched::profiler
