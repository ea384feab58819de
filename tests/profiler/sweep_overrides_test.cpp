// A sweep as `cosched profile` asks for it (profiler/sweep_overrides.hpp): the file's keys with each given flag
// overriding them, commands given one by one replacing the kernels, the flag combinations refused as usage errors;
// and the notes a command sweep's sidecar gives about fast memory (profile_context.hpp).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/sweep_overrides.hpp"

namespace cosched::profiler {
namespace {

const std::string kKnlModel = std::string(COSCHED_SOURCE_DIR) + "/configs/profiles/knl-model.toml";

TEST(SweepOverrides, TheFilesKeysWithTheGivenFlagsOverridingThem) {
  const SweepConfig file = load_sweep_config(kKnlModel);
  SweepOverrides overrides;
  overrides.config = kKnlModel;
  EXPECT_EQ(sweep_from_overrides(overrides).kernels, file.kernels);
  EXPECT_EQ(sweep_from_overrides(overrides).cores, file.cores);
  overrides.kernels = {"triad"};
  overrides.cores = "1,2,4..6";
  overrides.reps = 3;
  overrides.footprints_mib = {64};
  const SweepConfig sweep = sweep_from_overrides(overrides);
  EXPECT_EQ(sweep.kernels, (std::vector<std::string>{"triad"}));
  EXPECT_EQ(sweep.cores, (std::vector<unsigned>{1, 2, 4, 5, 6}));
  EXPECT_EQ(sweep.chunks, file.chunks);
  EXPECT_EQ(sweep.reps, 3u);
  EXPECT_EQ(sweep.footprints_mib, (std::vector<double>{64}));
  EXPECT_TRUE(sweep.footprints_percent_of_fast.empty()) << "the flags' footprints replace the file's";
  EXPECT_EQ(sweep.measurer, file.measurer);
  EXPECT_EQ(sweep.platform_file, file.platform_file);
}

TEST(SweepOverrides, CommandsReplaceTheKernelsAndSelectTheCommandMeasurer) {
  SweepOverrides overrides;
  overrides.commands = {"/bin/true --threads {threads}", "/bin/echo x"};
  overrides.names = {"first", "second"};
  overrides.command_timeout_s = 5.0;
  overrides.placement = "bind";
  overrides.autohbw_threshold_kib = 2;
  const SweepConfig sweep = sweep_from_overrides(overrides);
  EXPECT_EQ(sweep.placement.mechanism, "bind");
  EXPECT_EQ(sweep.placement.autohbw_threshold_bytes, 2048u);
  EXPECT_TRUE(sweep.kernels.empty());
  EXPECT_EQ(sweep.measurer, kCommandMeasurer);
  ASSERT_EQ(sweep.commands.size(), 2u);
  EXPECT_EQ(sweep.commands[0].name, "first");
  EXPECT_EQ(sweep.commands[0].argv, (std::vector<std::string>{"/bin/true", "--threads", "{threads}"}));
  EXPECT_EQ(sweep.commands[1].timeout_s, 5.0);
  overrides.names.clear();
  EXPECT_EQ(sweep_from_overrides(overrides).commands[1].name, "echo");
}

TEST(SweepOverrides, FlagCombinationsThatDoNotGoTogetherAreUsageErrors) {
  SweepOverrides names_alone;
  names_alone.names = {"a"};
  EXPECT_THROW((void)sweep_from_overrides(names_alone), UsageError);
  SweepOverrides too_few_names;
  too_few_names.commands = {"/bin/true", "/bin/false"};
  too_few_names.names = {"a"};
  EXPECT_THROW((void)sweep_from_overrides(too_few_names), UsageError);
  SweepOverrides with_kernels;
  with_kernels.commands = {"/bin/true"};
  with_kernels.kernels = {"triad"};
  EXPECT_THROW((void)sweep_from_overrides(with_kernels), UsageError);
  SweepOverrides other_measurer;
  other_measurer.commands = {"/bin/true"};
  other_measurer.measurer = "stream";
  EXPECT_THROW((void)sweep_from_overrides(other_measurer), UsageError);
  SweepOverrides bad_name;  // not an identifier: the command's InputError becomes a usage error (a flag)
  bad_name.commands = {"/bin/true"};
  bad_name.names = {"a b"};
  EXPECT_THROW((void)sweep_from_overrides(bad_name), UsageError);
  // How commands get fast memory, for a sweep of kernels: ignored before (issue 41), refused now.
  SweepOverrides kernels_placed;
  kernels_placed.config = kKnlModel;
  kernels_placed.placement = "bind";
  EXPECT_THROW((void)sweep_from_overrides(kernels_placed), UsageError);
}

TEST(CommandNotes, FastMemoryAndEachPlacementAsApplied) {
  ProfileSidecar sidecar;
  EXPECT_EQ(format_command_notes(sidecar), "");
  sidecar.measurer["fast_memory"] = "placed by the kernel";
  sidecar.measurer["placements_applied"] = {{"0", {{"placement", "none"}, {"applied_fraction", nullptr}}},
                                            {"5", {{"placement", "bind"}, {"applied_fraction", 0.25}}}};
  EXPECT_EQ(format_command_notes(sidecar),
            "profile: fast memory placed by the kernel\n"
            "profile: chunks=0: none (fast fraction applied: not held by this mechanism)\n"
            "profile: chunks=5: bind (fast fraction applied: 0.2500)\n");
}

}  // namespace
}  // namespace cosched::profiler
