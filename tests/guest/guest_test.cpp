// The guest tests (label guest; docs/guest.md): each machine shape of tests/guest/shapes/ is booted once under
// QEMU (scripts/guest/run-shape.sh) with a Debian kernel and the project's programs, runs every check of that shape
// in that boot (tests/guest/guest_init.sh), and these tests read its console. Where a page lives is read with
// move_pages(2) from outside the allocator (page_nodes for stream_bench's arrays, memory_probe for a command's
// pages). ctest runs one shape per test (guest_<shape>: --gtest_filter=*/<shape>); without QEMU, busybox-static or a
// kernel package each shape skips with one line saying which.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "guest/guest_console.hpp"

namespace {

using cosched::guest_testing::Console;
using cosched::guest_testing::find_json;
using nlohmann::json;

// What a shape must show; node sets are OS indices.
struct Shape {
  std::string name;
  std::set<int> fast;           // the fast tier cosched topo must find
  std::set<int> slow;           // every other node
  std::string memory_mode;      // cosched topo's inference
  std::string cluster_mode;
  std::string kernel_isa;       // the STREAM loops the guest's CPU gets
  // Where memkind puts the parts, given MEMKIND_HBW_NODES = the fast nodes (docs/memory-tiers.md):
  enum class Memkind {
    as_numa,        // the fast parts on fast nodes, the slow parts on slow nodes
    cpu_nodes_only, // CXL: REGULAR is "the nodes with CPUs", the fast DDR node; nothing reaches the expander
    no_promise,     // SNC-4: the HBW kind binds the HBW node nearest the allocating thread; seen on one MCDRAM node
                    // in one run and on the DDR nodes in the next: the run is checked, its placement only shown
  };
  Memkind memkind = Memkind::as_numa;
};

std::ostream& operator<<(std::ostream& out, const Shape& shape) { return out << shape.name; }

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> all{
      {"knl_flat_quadrant", {1}, {0}, "flat", "quadrant", "avx2"},
      {"knl_snc4_flat", {4, 5, 6, 7}, {0, 1, 2, 3}, "flat", "SNC-4", "avx2", Shape::Memkind::no_promise},
      {"xeonmax_snc4_2s", {8, 9, 10, 11, 12, 13, 14, 15}, {0, 1, 2, 3, 4, 5, 6, 7}, "flat", "SNC-4", "avx2",
       Shape::Memkind::no_promise},
      {"xeonmax_flat_quadrant", {1}, {0}, "flat", "quadrant", "avx2"},
      // One package with a fast node: quadrant is assumed, as docs/platform.md says (it means nothing here).
      {"cxl_expander", {0}, {1}, "flat", "quadrant", "x86-64", Shape::Memkind::cpu_nodes_only},
      {"no_hmat", {1}, {0}, "flat", "quadrant", "avx2"},
  };
  return all;
}

constexpr std::size_t page_bytes = 4096;
constexpr std::size_t array_mib = 16;  // cosched.mib of every shape
constexpr double fast_fraction = 0.5;  // guest_init.sh's stream_pages
constexpr std::size_t fast_pages_per_array =
    static_cast<std::size_t>(fast_fraction * array_mib * (1 << 20)) / page_bytes;

struct Booted {
  Console console;
  std::string skip;  // non-empty: why this shape could not boot
  std::string error;  // non-empty: the boot failed
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Boots `shape` once per process (ctest runs one shape per process).
const Booted& boot(const std::string& shape) {
  static std::map<std::string, Booted> booted;
  if (auto found = booted.find(shape); found != booted.end()) return found->second;
  Booted& result = booted[shape];
  const std::string out = COSCHED_GUEST_OUT_DIR;
  std::filesystem::create_directories(out);
  const std::string log = out + "/" + shape + ".boot-log";
  const std::string command = "bash '" COSCHED_SOURCE_DIR "/scripts/guest/run-shape.sh' '" + shape +
                              "' '" COSCHED_BUILD_DIR "' '" + out + "' >'" + log + "' 2>&1";
  const int status = std::system(command.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  const std::string said = read_file(log);
  if (code == 77) {
    result.skip = said;
  } else if (code != 0) {
    result.error = "run-shape.sh exit " + std::to_string(code) + ": " + said;
  }
  result.console = cosched::guest_testing::parse_console(read_file(out + "/" + shape + ".console"));
  return result;
}

class Guest : public ::testing::TestWithParam<Shape> {
 protected:
  void SetUp() override {
    const Booted& booted = boot(GetParam().name);
    if (!booted.skip.empty()) {
      static bool said = false;  // one line per shape (ctest's SKIP_REGULAR_EXPRESSION finds it)
      if (!std::exchange(said, true)) std::printf("guest: skipped: %s", booted.skip.c_str());
      GTEST_SKIP() << booted.skip;
    }
    ASSERT_TRUE(booted.error.empty()) << booted.error;
    console_ = &booted.console;
  }

  // The named section, which must have run with exit code `rc`.
  const std::string& section(const std::string& name, int rc = 0) {
    const auto found = console_->sections.find(name);
    if (found == console_->sections.end()) {
      ADD_FAILURE() << "no section " << name << " in the console:\n" << console_->text;
      static const std::string none;
      return none;
    }
    EXPECT_EQ(found->second.rc, rc) << name << ":\n" << found->second.text;
    return found->second.text;
  }

  json section_json(const std::string& name, const std::string& key, int rc = 0) {
    const std::string& text = section(name, rc);
    const auto document = find_json(text, key);
    if (!document) ADD_FAILURE() << "no JSON with \"" << key << "\" in " << name << ":\n" << text;
    return document.value_or(json::object());
  }

  const Console* console_ = nullptr;
};

std::set<int> as_set(const json& list) {
  std::set<int> values;
  for (const json& value : list) values.insert(value.get<int>());
  return values;
}

TEST_P(Guest, TopoClassifiesEveryNode) {
  const Shape& shape = GetParam();
  const json topo = section_json("topo", "numa_nodes");
  EXPECT_EQ(as_set(topo["fast_nodes"]), shape.fast) << topo.dump(2);
  for (const json& node : topo["numa_nodes"]) {
    const int index = node["os_index"].get<int>();
    const std::string expected = shape.fast.count(index) ? "fast" : "slow";
    EXPECT_EQ(node["tier"], expected) << "node " << index << ": " << node["reason"];
    EXPECT_TRUE(shape.fast.count(index) + shape.slow.count(index) == 1) << "unexpected node " << index;
  }
  EXPECT_EQ(topo["numa_nodes"].size(), shape.fast.size() + shape.slow.size());
  EXPECT_EQ(topo["memory_mode"], shape.memory_mode) << topo["memory_mode_reason"];
  EXPECT_EQ(topo["cluster_mode"], shape.cluster_mode) << topo["cluster_mode_reason"];
  EXPECT_EQ(topo["tier_backend"], "numa") << "auto should pick numa where the topology names fast nodes";
}

TEST_P(Guest, StreamLoopsMatchTheCpu) {
  const json run = section_json("stream_version", "kernel_isa");
  EXPECT_EQ(run["kernel_isa"], GetParam().kernel_isa);
  EXPECT_TRUE(run["validated"].get<bool>()) << run["validation_message"];
}

// Pages on the shape's fast nodes and on its slow nodes, over every large anonymous mapping; and the lengths of
// the maximal runs of consecutive fast pages (one per array where the backend maps each array as one range).
struct PageCount {
  std::size_t fast = 0;
  std::size_t slow = 0;
  std::vector<std::size_t> fast_runs;
};

bool wholly_resident(const json& mapping) {
  for (const json& entry : mapping["runs"]) {
    if (entry[0].get<int>() < 0) return false;
  }
  return true;
}

// `arrays_only`: only mappings whose every page is resident — the numa backend's arrays, first-touched whole —
// so that other memory the process touched (its heap, on a fast node that has CPUs: cxl_expander) is not counted.
PageCount count_pages(const json& page_nodes, const Shape& shape, bool arrays_only = false) {
  PageCount count;
  for (const json& mapping : page_nodes["page_nodes"]["mappings"]) {
    if (arrays_only && !wholly_resident(mapping)) continue;
    std::size_t run = 0;
    for (const json& entry : mapping["runs"]) {
      const int node = entry[0].get<int>();
      const auto pages = entry[1].get<std::size_t>();
      if (shape.fast.count(node)) {
        count.fast += pages;
        run += pages;
        continue;
      }
      if (shape.slow.count(node)) count.slow += pages;
      if (run > 0) count.fast_runs.push_back(run);
      run = 0;
    }
    if (run > 0) count.fast_runs.push_back(run);
  }
  return count;
}

// The numa backend maps each array as one range, its first f of the pages bound to the fast nodes: three runs of
// fast pages, each within one page of f of its array (the page holding the boundary goes fast).
TEST_P(Guest, NumaBackendPutsEachArraysFastPartOnTheFastNodes) {
  const json run = section_json("stream_numa", "kernel_isa");
  EXPECT_TRUE(run["validated"].get<bool>()) << run["validation_message"];
  EXPECT_EQ(run["tier_backend"], "numa");
  const PageCount pages = count_pages(section_json("stream_numa", "page_nodes"), GetParam(), true);
  ASSERT_EQ(pages.fast_runs.size(), 3U) << "fast pages " << pages.fast;
  for (std::size_t run_pages : pages.fast_runs) {
    EXPECT_GE(run_pages, fast_pages_per_array);
    EXPECT_LE(run_pages, fast_pages_per_array + 1);
  }
  EXPECT_GE(pages.slow, 3 * (array_mib * (1 << 20) / page_bytes - fast_pages_per_array - 1));
}

// memkind allocates each part from its own heap (HBW and REGULAR kinds), so the parts of the three arrays need not
// be separate runs: the fast pages together are within one page per array of f of the arrays.
TEST_P(Guest, MemkindBackendPlacesAsMemkindDoes) {
  const Shape& shape = GetParam();
  const json run = section_json("stream_memkind", "kernel_isa");
  EXPECT_TRUE(run["validated"].get<bool>()) << run["validation_message"];
  EXPECT_EQ(run["tier_backend"], "memkind");
  const PageCount pages = count_pages(section_json("stream_memkind", "page_nodes"), shape);
  const std::size_t slow_pages = 3 * (array_mib * (1 << 20) / page_bytes - fast_pages_per_array);
  switch (shape.memkind) {
    case Shape::Memkind::as_numa:
      EXPECT_GE(pages.fast, 3 * fast_pages_per_array);
      EXPECT_LE(pages.fast, 3 * fast_pages_per_array + 3);
      EXPECT_GE(pages.slow, slow_pages - 3);
      break;
    case Shape::Memkind::cpu_nodes_only:
      EXPECT_EQ(pages.slow, 0U) << "memkind's slow part reached the slow node";
      EXPECT_GE(pages.fast, 3 * fast_pages_per_array + slow_pages);
      break;
    case Shape::Memkind::no_promise:
      EXPECT_GE(pages.fast + pages.slow, 3 * fast_pages_per_array + slow_pages) << "the arrays are not resident";
      std::printf("memkind on %s: %zu pages on fast nodes, %zu on slow nodes (docs/memory-tiers.md)\n",
                  shape.name.c_str(), pages.fast, pages.slow);
      break;
  }
}

// A command placed as docs/launcher.md says (memory_probe reports its policy and where its 24 MiB landed).
json placed(const json& probe) {
  json pages = json::object();
  for (const auto& [node, count] : probe["pages_on"].items()) pages[node] = count;
  return pages;
}

std::size_t pages_on(const json& probe, const std::set<int>& nodes) {
  std::size_t total = 0;
  for (const auto& [node, count] : probe["pages_on"].items()) {
    if (nodes.count(std::stoi(node))) total += count.get<std::size_t>();
  }
  return total;
}

constexpr std::size_t probe_pages = std::size_t{24} << 20 >> 12;

TEST_P(Guest, CommandPlacementsPutPagesWhereTheLauncherSays) {
  const Shape& shape = GetParam();
  const json bind = section_json("place_bind", "pages_on");
  EXPECT_EQ(bind["mode"], "bind");
  EXPECT_EQ(as_set(bind["nodes"]), shape.fast);
  EXPECT_EQ(pages_on(bind, shape.fast), probe_pages) << placed(bind).dump();

  const json preferred = section_json("place_preferred", "pages_on");
  EXPECT_EQ(preferred["mode"], "preferred");
  const int first_fast = *shape.fast.begin();
  EXPECT_EQ(pages_on(preferred, {first_fast}), probe_pages) << placed(preferred).dump();

  const json slow = section_json("place_slow", "pages_on");  // no fast share: bound to the slow nodes
  EXPECT_EQ(slow["mode"], "bind");
  EXPECT_EQ(as_set(slow["nodes"]), shape.slow);
  EXPECT_EQ(pages_on(slow, shape.slow), probe_pages) << placed(slow).dump();

  const json none = section_json("place_none", "pages_on");  // no policy: the kernel's local allocation
  EXPECT_EQ(none["mode"], "default");
  EXPECT_EQ(pages_on(none, shape.fast) + pages_on(none, shape.slow), probe_pages);
}

// Weighted interleave needs Linux 6.9; the guests' Debian 12 kernel is 6.1: the placement must say so and place
// nothing rather than fall back to something else.
TEST_P(Guest, WeightedInterleaveIsRefusedWhereTheKernelLacksIt) {
  const auto found = console_->sections.find("place_weighted");
  ASSERT_NE(found, console_->sections.end());
  EXPECT_NE(found->second.rc, 0) << found->second.text;
  EXPECT_NE(found->second.text.find("6.9"), std::string::npos) << found->second.text;
}

TEST_P(Guest, CalibrateAndRunEndToEnd) {
  section("calibrate");
  const std::string& run = section("run");
  EXPECT_NE(run.find("batch: predicted"), std::string::npos) << run;
}

// A platform whose fast tier is larger than the fast nodes: refused (exit 4) before any task runs.
TEST_P(Guest, AFastTierTooSmallForThePlanIsRefusedBeforeWork) {
  const std::string& refused = section("too_small", 4);
  EXPECT_EQ(refused.find("started"), std::string::npos) << refused;
  EXPECT_EQ(refused.find("calibrating"), std::string::npos) << refused;
}

INSTANTIATE_TEST_SUITE_P(Shapes, Guest, ::testing::ValuesIn(shapes()),
                         [](const ::testing::TestParamInfo<Shape>& shape) { return shape.param.name; });

}  // namespace
