// Issue #27, item 3: a saved hwloc XML is untrusted input. hwloc crashed (SIGSEGV) on an object without
// complete_nodeset, overflowed its stack on 20,000 nested objects, and read a negative memory size as 16 EiB and
// text as 0. Each file below must now be an InputError naming the file, and this test process must survive it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/platform/topology.hpp"
#include "support/machine_xml.hpp"

namespace cosched::platform {
namespace {

using test::machine_xml;
using test::nested_groups;
const std::string& kNumaSets = test::kMachineXmlSets;

struct HostileXml {
  std::string name;
  std::string content;
  std::string fragment;  // the error message holds it (besides the file's name)
};

class TopologyXmlHostileTest : public ::testing::TestWithParam<HostileXml> {
 protected:
  void SetUp() override {
    path_ = std::filesystem::path(::testing::TempDir()) /
            ("cosched-hostile-" + GetParam().name + "-" + std::to_string(::getpid()) + ".xml");
    std::ofstream(path_) << GetParam().content;
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::filesystem::path path_;
};

TEST_P(TopologyXmlHostileTest, IsAnInputErrorNamingTheFile) {
  try {
    (void)Topology::from_xml(path_.string());
    FAIL() << "no error for " << GetParam().name;
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(path_.string()), std::string::npos) << message;
    EXPECT_NE(message.find(GetParam().fragment), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, TopologyXmlHostileTest,
    ::testing::Values(
        // hwloc dereferences the missing set: a crash in the child process that reads the file first.
        HostileXml{"no_complete_nodeset",
                   machine_xml(R"(cpuset="0x1" complete_cpuset="0x1" nodeset="0x1" local_memory="1024")"),
                   "hwloc crashed with signal"},
        HostileXml{"nested_20000", machine_xml(kNumaSets + R"( local_memory="1024")", nested_groups(20000)),
                   "nested more than 64 deep"},
        HostileXml{"negative_memory", machine_xml(kNumaSets + R"( local_memory="-5")"), R"(local_memory="-5")"},
        HostileXml{"huge_memory", machine_xml(kNumaSets + R"( local_memory="18446744073709551615")"),
                   "local_memory"},
        HostileXml{"memory_beyond_limit", machine_xml(kNumaSets + R"( local_memory="1125899906842625")"),
                   "[0, 1125899906842624]"},
        HostileXml{"text_memory", machine_xml(kNumaSets + R"( local_memory="lots")"), R"(local_memory="lots")"},
        HostileXml{"negative_page_count",
                   machine_xml(kNumaSets + R"( local_memory="1024")", "", R"(<page_type size="4096" count="-1"/>)"),
                   R"(count="-1")"},
        HostileXml{"zero_page_size",
                   machine_xml(kNumaSets + R"( local_memory="1024")", "", R"(<page_type size="0" count="4"/>)"),
                   R"(size="0" must be a page size in bytes: a decimal integer in [1, )"},
        HostileXml{"plus_sign_size", machine_xml(kNumaSets + R"( local_memory="+1024")"), "local_memory"},
        HostileXml{"not_well_formed", machine_xml(kNumaSets + R"( local_memory="1024)"), "not well-formed"}),
    [](const ::testing::TestParamInfo<HostileXml>& row) { return row.param.name; });

TEST(TopologyXmlHostileLimitsTest, TheLargestAllowedValuesAndTheDeepestAllowedNestingLoad) {
  // The limits are not off by one: a node of exactly kMaxTopologyBytes and groups up to the allowed depth load
  // (<topology> is depth 0, the Machine 1, so 62 groups put the deepest object at 63 and its PU at 64).
  const auto path = std::filesystem::path(::testing::TempDir()) /
                    ("cosched-limits-" + std::to_string(::getpid()) + ".xml");
  std::ofstream(path) << machine_xml(kNumaSets + " local_memory=\"" + std::to_string(kMaxTopologyBytes) + "\"",
                                     nested_groups(kMaxTopologyXmlDepth - 2));
  const Topology topology = Topology::from_xml(path.string());
  std::filesystem::remove(path);
  ASSERT_EQ(topology.numa_nodes().size(), 1U);
  EXPECT_EQ(topology.numa_nodes()[0].bytes, kMaxTopologyBytes);
}

}  // namespace
}  // namespace cosched::platform
