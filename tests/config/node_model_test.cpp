// Node files (the bandwidth model of a node): the writer's output reads back to the same model, every class of bad
// input is refused naming file:line and the key, the curve interpolates as documented, stale or foreign
// calibrations draw warnings naming `cosched calibrate`, and the repository's KNL model maps its tiers to two pools.
#include "support/recording_reporter.hpp"
#include "cosched/config/node_model.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/utc_time.hpp"
#include "support/programs.hpp"
#include "test_support.hpp"

namespace cosched::config {
namespace {

using namespace std::chrono_literals;

// A valid node file; the line of each key is fixed, the error cases below edit one part of it.
const std::string kGood =
    "format_version = 1\n"                    // 1
    "[provenance]\n"                          // 2
    "host = \"h\"\n"                          // 3
    "date = \"2026-11-22T13:50:00Z\"\n"       // 4
    "method = \"m\"\n"                        // 5
    "cosched_version = \"0.1.0\"\n"           // 6
    "tier_backend = \"emulated\"\n"           // 7
    "emulated = true\n"                       // 8
    "[[pools]]\n"                             // 9
    "name = \"dram\"\n"                       // 10
    "tiers = [\"fast\", \"slow\"]\n"          // 11
    "cores = [1, 2]\n"                        // 12
    "gbs = [10.0, 12.0]\n"                    // 13
    "[pools.kernels.triad]\n"                 // 14
    "cores = [1, 2]\n"                        // 15
    "gbs = [10.0, 12.0]\n";                   // 16

// `base` (kGood) with the first `from` replaced by `to`.
std::string edit(const std::string& from, const std::string& to, std::string text = kGood) {
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("node_model_test: no '" + from + "' to edit");
  return text.replace(at, from.size(), to);
}

const std::string kNotEmulated = edit("tier_backend = \"emulated\"\nemulated = true\n",
                                      "tier_backend = \"numa\"\nemulated = false\n");
const std::string kFastOnly = edit("tiers = [\"fast\", \"slow\"]", "tiers = [\"fast\"]");
const std::string kSecondPool = "[[pools]]\nname = \"ddr\"\ntiers = [\"slow\"]\ncores = [1]\ngbs = [5]\n";  // 17..21

struct NodeBadFile {
  std::string text;
  std::string fragment;
  int line;
};
void PrintTo(const NodeBadFile& bad, std::ostream* out) { *out << bad.fragment << " @" << bad.line; }

class NodeFileErrors : public ::testing::TestWithParam<NodeBadFile> {};

TEST_P(NodeFileErrors, AreInputErrorsNamingFileLineAndKey) {
  const NodeBadFile& bad = GetParam();
  testing::expect_refused({bad.text.c_str(), bad.fragment.c_str(), bad.line}, "node.toml",
                          [](const auto& path) { (void)load_node_model(path); });
}

INSTANTIATE_TEST_SUITE_P(
    EveryClass, NodeFileErrors,
    ::testing::Values(
        // unknown keys, at every level
        NodeBadFile{edit("format_version = 1\n", "format_version = 1\ncolour = 1\n"), "unknown key 'colour'", 2},
        NodeBadFile{edit("emulated = true\n", "emulated = true\nowner = \"me\"\n"), "'provenance.owner'", 9},
        NodeBadFile{edit("gbs = [10.0, 12.0]\n[pools", "gbs = [10.0, 12.0]\nlatency = 1\n[pools"),
                    "'pools[0].latency'", 14},
        NodeBadFile{kGood + "reps = 3\n", "'pools[0].kernels.triad.reps'", 17},
        // wrong types
        NodeBadFile{edit("host = \"h\"", "host = 5"), "'provenance.host' must be a string", 3},
        NodeBadFile{edit("emulated = true", "emulated = \"yes\""), "'provenance.emulated' must be true or false", 8},
        NodeBadFile{edit("tiers = [\"fast\", \"slow\"]", "tiers = \"fast\""), "'pools[0].tiers' must be an array", 11},
        NodeBadFile{edit("cores = [1, 2]", "cores = [1.5, 2]"), "'pools[0].cores'", 12},
        NodeBadFile{edit("gbs = [10.0, 12.0]", "gbs = \"fast\""), "'pools[0].gbs' must be an array of numbers", 13},
        NodeBadFile{edit("[pools.kernels.triad]\ncores = [1, 2]\ngbs = [10.0, 12.0]\n", "[pools.kernels]\ntriad = 5\n"),
                    "'pools[0].kernels.triad' must be a table", 15},
        NodeBadFile{edit("format_version = 1", "format_version = \"1\""), "`cosched calibrate", 1},
        // missing keys
        NodeBadFile{edit("host = \"h\"\n", ""), "missing key 'provenance.host'", 2},
        NodeBadFile{edit("gbs = [10.0, 12.0]\n[pools", "[pools"), "missing key 'pools[0].gbs'", 9},
        NodeBadFile{edit("name = \"dram\"\n", ""), "missing key 'pools[0].name'", 9},
        NodeBadFile{edit("format_version = 1\n", ""), "missing key 'format_version' (= 1); `cosched calibrate", 0},
        NodeBadFile{"format_version = 1\n", "missing table [provenance]", 0},
        NodeBadFile{kGood.substr(0, kGood.find("[[pools]]")), "missing [[pools]]", 0},
        // values out of range
        NodeBadFile{edit("gbs = [10.0, 12.0]", "gbs = [0, 12.0]"), "'pools[0].gbs' [0] must be finite, > 0", 13},
        NodeBadFile{edit("gbs = [10.0, 12.0]", "gbs = [nan, 12.0]"), "must be finite", 13},
        NodeBadFile{edit("gbs = [10.0, 12.0]", "gbs = [10.0, 1e7]"), "'pools[0].gbs' [1]", 13},
        NodeBadFile{edit("cores = [1, 2]", "cores = [0, 2]"), "'pools[0].cores' [0] must be an integer from 1", 12},
        NodeBadFile{edit("cores = [1, 2]", "cores = [1, 5000]"), "'pools[0].cores'", 12},
        NodeBadFile{edit("date = \"2026-11-22T13:50:00Z\"", "date = \"2026-02-30T00:00:00Z\""), "ISO-8601", 4},
        NodeBadFile{edit("date = \"2026-11-22T13:50:00Z\"", "date = \"yesterday\""), "\"yesterday\"", 4},
        NodeBadFile{edit("date = \"2026-11-22T13:50:00Z\"", "date = \"0004-11-22T13:50:00Z\""),
                    "the year must be 1970 to 2200", 4},
        NodeBadFile{edit("tier_backend = \"emulated\"", "tier_backend = \"auto\""), "unknown backend 'auto'", 7},
        NodeBadFile{edit("method = \"m\"", "method = \"\""), "'provenance.method' must not be empty", 5},
        NodeBadFile{edit("name = \"dram\"", "name = \"../x\""), "\"../x\" is not allowed", 10},
        NodeBadFile{edit("format_version = 1", "format_version = 2"), "must be 1: this cosched reads node files of "
                                                                      "format 1 only; `cosched calibrate", 1},
        // unsorted or repeated cores, curves of different lengths
        NodeBadFile{edit("cores = [1, 2]", "cores = [2, 1]"), "ascending without repeats: 1 follows 2", 12},
        NodeBadFile{edit("cores = [1, 2]\ngbs = [10.0, 12.0]\n[pools", "cores = [1, 1]\ngbs = [10.0, 12.0]\n[pools"),
                    "'pools[0].cores' must be ascending", 12},
        NodeBadFile{kGood.substr(0, kGood.rfind("cores")) + "cores = [2, 1]\ngbs = [1, 2]\n",
                    "'pools[0].kernels.triad.cores' must be ascending", 15},
        NodeBadFile{edit("gbs = [10.0, 12.0]", "gbs = [10.0]"), "'pools[0].gbs' has 1 values but 'pools[0].cores' "
                                                                "has 2", 13},
        NodeBadFile{edit("cores = [1, 2]\ngbs = [10.0, 12.0]\n[pools", "cores = []\ngbs = []\n[pools"),
                    "'pools[0].cores' must not be empty", 12},
        // tiers: each in exactly one pool, "slow" always, an emulated tier in the slow tier's pool
        NodeBadFile{kGood + kSecondPool, "key 'pools[1].tiers': the slow tier is already in pool \"dram\"", 19},
        NodeBadFile{edit("tiers = [\"fast\", \"slow\"]", "tiers = [\"fast\", \"medium\"]"), "unknown tier \"medium\"", 11},
        NodeBadFile{edit("tiers = [\"fast\", \"slow\"]", "tiers = [\"slow\", \"slow\"]"), "names the slow tier twice", 11},
        NodeBadFile{edit("tiers = [\"fast\", \"slow\"]", "tiers = []"), "at least one", 11},
        NodeBadFile{edit("tiers = [\"fast\", \"slow\"]", "tiers = [\"fast\"]", kNotEmulated),
                    "no pool holds the slow tier", 9},
        NodeBadFile{kFastOnly + kSecondPool, "an emulated fast tier is the same memory as the slow tier", 8},
        NodeBadFile{edit("emulated = true", "emulated = false", kFastOnly) + edit("\"ddr\"", "\"dram\"", kSecondPool),
                    "pool \"dram\" appears twice", 18},
        // syntax
        NodeBadFile{edit("[[pools]]", "[[pools]"), "node.toml:9:", 9}));

MemoryPool pool(const std::string& name, std::vector<std::string> tiers, BandwidthCurve curve) {
  MemoryPool pool;
  pool.name = name;
  pool.tiers = std::move(tiers);
  pool.bandwidth = std::move(curve);
  return pool;
}

NodeModel two_pool_model() {
  NodeModel model;
  model.provenance = {"knl \"lab\" node\x7f" "\t\\ ü",  // TOML needs DEL escaped, JSON does not
                      "2016-07-01T00:00:00Z", "documented:\nSTREAM triad", "0.1.0", "knl.toml",
                      "memkind", false, {"K. Rupp, 2016", "https://example.org/a?b=c"}};
  model.pools.push_back(pool("mcdram", {"fast"}, {{1, 2, 64}, {11.839, 23.0441, 421.7368}}));
  model.pools.push_back(pool("ddr", {"slow"}, {{1, 64}, {10.8452, 88.3871}}));
  model.pools[0].kernels["triad"] = model.pools[0].bandwidth;
  model.pools[0].kernels["my.kernel+2"] = {{3}, {0.1}};  // not a bare TOML key: written quoted
  return model;
}

NodeModel emulated_model() {
  NodeModel model;
  model.provenance = {"vm", "2026-11-22T13:50:00Z", "triad, ddot, write", "0.1.0", "node.toml", "emulated", true, {}};
  model.pools.push_back(pool("dram", {"fast", "slow"}, {{1, 2}, {1.0 / 3.0, 33.0}}));
  return model;
}

TEST(NodeToml, WriterOutputReadsBackToTheSameModel) {
  for (const NodeModel& model : {two_pool_model(), emulated_model()}) {
    const std::string text = to_toml(model);
    EXPECT_EQ(parse_node_toml(text, model.provenance.source), model) << text;
  }
}

TEST(NodeToml, TheSourceIsWhereTheModelWasRead) {
  const auto path = testing::write_file(testing::scratch_dir() / "n.toml", kGood);
  EXPECT_EQ(load_node_model(path).provenance.source, path.string());
}

TEST(NodeToml, AMissingFileNamesTheCommandThatMakesOne) {
  const auto missing = testing::scratch_dir() / "none.toml";
  const std::string what = testing::input_error_of([&] { (void)load_node_model(missing); });
  EXPECT_NE(what.find("cosched calibrate --output " + missing.string()), std::string::npos) << what;
}

TEST(NodeToml, AnInvalidModelHasNoTomlForm) {
  NodeModel model = emulated_model();
  model.pools[0].bandwidth.gbs.push_back(1.0);  // two core counts, three values
  EXPECT_THROW((void)to_toml(model), InputError);
  model = emulated_model();
  model.pools[0].tiers = {"fast"};  // no slow tier
  EXPECT_THROW(check_node_model(model), InputError);
}

TEST(NodeModel, TiersMapToTheirPools) {
  const NodeModel two = two_pool_model();
  EXPECT_EQ(two.pool_of_tier("fast").name, "mcdram");
  EXPECT_EQ(two.pool_of_tier("slow").name, "ddr");
  EXPECT_FALSE(two.tiers_share_one_pool());
  const NodeModel one = emulated_model();
  EXPECT_EQ(&one.pool_of_tier("fast"), &one.pool_of_tier("slow"));
  EXPECT_TRUE(one.tiers_share_one_pool());
  NodeModel slow_only = two;
  slow_only.pools.erase(slow_only.pools.begin());
  EXPECT_FALSE(slow_only.has_tier("fast"));
  EXPECT_THROW((void)slow_only.pool_of_tier("fast"), InputError);
}


TEST(NodeModelAge, ACurrentCalibrationOnThisHostDrawsNoWarning) {
  const NodeModel model = emulated_model();
  const auto made = parse_iso8601_utc(model.provenance.date, "test");
  EXPECT_TRUE(node_model_warnings(model, made + 24h * 29, "vm").empty());
}

TEST(NodeModelAge, AnOldOrForeignCalibrationDrawsWarningsNamingCalibrate) {
  const NodeModel model = emulated_model();
  const auto made = parse_iso8601_utc(model.provenance.date, "test");
  const auto old = node_model_warnings(model, made + 24h * 31, "vm");
  ASSERT_EQ(old.size(), 1U);
  EXPECT_NE(old[0].find("31 days ago"), std::string::npos) << old[0];
  EXPECT_NE(old[0].find("cosched calibrate"), std::string::npos) << old[0];
  const auto foreign = node_model_warnings(model, made, "other");
  ASSERT_EQ(foreign.size(), 1U);
  EXPECT_NE(foreign[0].find("\"vm\", this is \"other\""), std::string::npos) << foreign[0];
  EXPECT_NE(foreign[0].find("cosched calibrate"), std::string::npos) << foreign[0];
  EXPECT_EQ(node_model_warnings(model, made + 24h * 365, "other").size(), 2U);
}

TEST(NodeModelAge, ADocumentedModelIsNeverStale) {
  const NodeModel model = two_pool_model();
  EXPECT_TRUE(node_model_warnings(model, std::chrono::system_clock::now(), "elsewhere").empty());
}

TEST(NodeModelAge, WarningsArePrintedOneLineEach) {
  NodeModel model = emulated_model();
  model.provenance.host = host_name() + "-not";
  model.provenance.date = "2020-01-01T00:00:00Z";
  test_support::RecordingReporter reporter;
  EXPECT_EQ(check_node_model_age(model, reporter), 2U);  // made in 2020 and elsewhere
  const std::string text = reporter.text_of("warning");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
  EXPECT_EQ(reporter.events.size(), 2U) << "warnings, nothing else";
  EXPECT_EQ(text.rfind("cosched: warning: ", 0), 0U) << text;
}

TEST(NodeModelTime, Iso8601RoundTrips) {
  const auto time = parse_iso8601_utc("2024-02-29T23:59:58Z", "test");
  EXPECT_EQ(iso8601_utc(time), "2024-02-29T23:59:58Z");
  EXPECT_EQ(iso8601_utc(time + 2s), "2024-03-01T00:00:00Z");
  EXPECT_THROW((void)parse_iso8601_utc("2024-02-29 23:59:58Z", "test"), InputError);
  EXPECT_THROW((void)parse_iso8601_utc("2023-02-29T00:00:00Z", "test"), InputError);
  EXPECT_THROW((void)parse_iso8601_utc("9999-01-01T00:00:00Z", "test"), InputError);  // beyond system_clock
}

TEST(NodeModelJson, CarriesProvenanceAndPools) {
  const nlohmann::json json = two_pool_model();
  EXPECT_EQ(json.at("provenance").at("tier_backend"), "memkind");
  EXPECT_EQ(json.at("provenance").at("emulated"), false);
  EXPECT_EQ(json.at("provenance").at("references").size(), 2U);
  EXPECT_EQ(json.at("pools").at(0).at("name"), "mcdram");
  EXPECT_EQ(json.at("pools").at(0).at("tiers"), nlohmann::json::array({"fast"}));
  EXPECT_EQ(json.at("pools").at(1).at("gbs").at(1), 88.3871);
  EXPECT_EQ(json.at("pools").at(0).at("kernels").at("triad").at("cores").at(2), 64);
}

TEST(KnlNodeModel, LoadsAndMapsTheTiersToMcdramAndDdr) {
  const NodeModel knl = load_node_model(COSCHED_SOURCE_DIR "/configs/nodes/knl-7210-flat.toml");
  EXPECT_FALSE(knl.provenance.emulated);
  EXPECT_TRUE(knl.provenance.documented());
  EXPECT_FALSE(knl.tiers_share_one_pool());
  const MemoryPool& fast = knl.pool_of_tier("fast");
  const MemoryPool& slow = knl.pool_of_tier("slow");
  EXPECT_EQ(fast.name, "mcdram");
  EXPECT_EQ(slow.name, "ddr");
  // The file holds the published figures docs/calibration.md tabulates (K. Rupp's triad data, 64 cores) — data
  // checked against its source, not a speed measured here.
  ASSERT_EQ(fast.bandwidth.cores.back(), 64U);
  ASSERT_EQ(slow.bandwidth.cores.back(), 64U);
  EXPECT_DOUBLE_EQ(fast.bandwidth.gbs.back(), 421.7368);  // 421.74 in the docs table
  EXPECT_DOUBLE_EQ(slow.bandwidth.gbs.back(), 88.3871);   // 88.39
  ASSERT_EQ(fast.bandwidth.cores, slow.bandwidth.cores);
  for (std::size_t k = 0; k < fast.bandwidth.cores.size(); ++k) {
    EXPECT_GT(fast.bandwidth.gbs[k], slow.bandwidth.gbs[k]) << fast.bandwidth.cores[k] << " cores";
  }
}

// ---- `cosched calibrate` writes what the reader loads (tiny arrays: an error-free run, not a measurement) -------

test_support::CommandResult calibrate(const std::string& arguments, const std::filesystem::path& dir) {
  return test_support::run_program("cosched", "calibrate --quiet --size-mib 1 --cores 1 --rounds 3 --reps 1 " +
                                                  arguments, dir);
}

TEST(CalibrateCommand, WritesANodeFileTheReaderLoadsWithTheMedianOverKernels) {
  if (!std::filesystem::exists(test_support::built_program("cosched"))) GTEST_SKIP() << "cosched not built";
  const auto dir = testing::scratch_dir();
  const auto result = calibrate("-o node.toml", dir);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const NodeModel model = load_node_model(dir / "node.toml");
  EXPECT_EQ(model.provenance.host, host_name());
  EXPECT_FALSE(model.provenance.documented());
  EXPECT_TRUE(node_model_warnings(model, std::chrono::system_clock::now(), host_name()).empty());
  EXPECT_TRUE(model.has_tier("slow"));
  EXPECT_EQ(model.tiers_share_one_pool(), model.provenance.emulated);
  EXPECT_EQ(result.out.find("EMULATED") != std::string::npos, model.provenance.emulated) << result.out;
  for (const MemoryPool& pool : model.pools) {
    ASSERT_EQ(pool.kernels.size(), 3U) << pool.name;  // triad, ddot, write
    std::vector<double> at_one_core;
    for (const auto& [kernel, curve] : pool.kernels) {
      ASSERT_EQ(curve.cores, std::vector<unsigned>{1}) << kernel;
      at_one_core.push_back(curve.gbs.at(0));
    }
    std::sort(at_one_core.begin(), at_one_core.end());
    EXPECT_EQ(pool.bandwidth.gbs.at(0), at_one_core[1]) << pool.name;  // the median of three is the middle one
  }
}

TEST(CalibrateCommand, WithoutAFastTierTheNodeHasOnlyTheSlowOne) {
  if (!std::filesystem::exists(test_support::built_program("cosched"))) GTEST_SKIP() << "cosched not built";
  const auto dir = testing::scratch_dir();
  const auto result = calibrate("--tier-backend none --kernels triad -o node.toml", dir);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const NodeModel model = load_node_model(dir / "node.toml");
  ASSERT_EQ(model.pools.size(), 1U);
  EXPECT_EQ(model.pools[0].tiers, std::vector<std::string>{"slow"});
  EXPECT_FALSE(model.provenance.emulated);
  EXPECT_EQ(model.provenance.tier_backend, "none");
  EXPECT_FALSE(model.has_tier("fast"));
}

}  // namespace
}  // namespace cosched::config
