// The Parallel Workloads Archive logs of the workplace's shared/data/traces/ (skipped without them): every log
// parses whole, and the set-up of seed 000 Sec. 7 (first 8,000 jobs of SDSC Par 96 and OSC, Downey model, m = 512)
// gives the loads the paper reports and the digest reproduced (§3.4).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <numeric>
#include <string>

#include "cosched/online/swf.hpp"
#include "support/test_data.hpp"

namespace cosched::online {
namespace {

struct ArchiveLogCase {
  std::string file;
  std::size_t jobs;  // job lines, as shared/data/traces/README.md counts them
};

void PrintTo(const ArchiveLogCase& c, std::ostream* out) { *out << c.file; }

class ArchiveLog : public ::testing::TestWithParam<ArchiveLogCase> {};

// The cleaned logs keep their original header: MaxRecords counts the records before cleaning (it matches only for
// KTH, SDSC-SP2 and LPC-EGEE), so the expected counts are the README's.
TEST_P(ArchiveLog, ParsesWholeAndRoundTrips) {
  COSCHED_SHARED_DATA_OR_SKIP(path, "traces/" + GetParam().file);
  const SwfTrace trace = load_swf(path);
  EXPECT_EQ(trace.records.size(), GetParam().jobs);
  EXPECT_TRUE(swf_header_integer(trace, "MaxProcs").has_value());
  EXPECT_EQ(parse_swf(to_swf(trace), trace.source), trace);
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, ArchiveLog,
                         ::testing::Values(ArchiveLogCase{"SDSC-Par-1996-3.1-cln.swf.gz", 32'135},
                                           ArchiveLogCase{"OSC-Clust-2000-3.1-cln.swf.gz", 36'097},
                                           ArchiveLogCase{"KTH-SP2-1996-2.1-cln.swf.gz", 28'476},
                                           ArchiveLogCase{"CTC-SP2-1996-3.1-cln.swf.gz", 77'222},
                                           ArchiveLogCase{"SDSC-SP2-1998-4.2-cln.swf.gz", 59'715},
                                           ArchiveLogCase{"LPC-EGEE-2004-1.2-cln.swf.gz", 234'889}),
                         [](const ::testing::TestParamInfo<ArchiveLogCase>& param_info) {
                           std::string name = param_info.param.file.substr(0, param_info.param.file.find('.'));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

struct PaperLoadCase {
  std::string file;
  double load;       // expected mean load over 20 Downey seeds
  double tolerance;
  std::size_t records_read;
};

void PrintTo(const PaperLoadCase& c, std::ostream* out) { *out << c.file; }

class PaperDowneyLoad : public ::testing::TestWithParam<PaperLoadCase> {};

// Seed 000 Sec. 7 reports the average load over 20 Downey instances (A ~ U[p, 512], sigma ~ U[0, 2],
// p_{i,1} = runtime x S(p)) of each log's first 8,000 jobs: SDSC 272.4, OSC 12.4. The digest's Python check
// (§3.4) got 267.0 +- 1.0 for SDSC keeping the 6 jobs of run time 0, which add no load; dropping them takes 6 more
// records, which moves the load by well under 1% (its script's drop0 variant: 266.8 +- 1.1). OSC has 96 such jobs
// in its first 8,096 records; with them dropped its load comes to 12.37, the paper's 12.4. The tolerances are
// about three standard deviations of the 20-seed mean plus that difference; a wrong speedup branch or
// A ~ U[1, 512] lands far outside.
TEST_P(PaperDowneyLoad, MatchesThePaperAndTheDigest) {
  COSCHED_SHARED_DATA_OR_SKIP(path, "traces/" + GetParam().file);
  const SwfTrace trace = load_swf(path);
  std::vector<double> loads;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const auto workload = workload_from_swf(trace, {512, 8000, seed});
    ASSERT_EQ(workload.instance.task_count(), 8000u);
    loads.push_back(workload_load(workload));
  }
  const double mean = std::accumulate(loads.begin(), loads.end(), 0.0) / static_cast<double>(loads.size());
  std::cout << GetParam().file << ", first 8000 usable jobs, Downey over 20 seeds: mean load " << mean << " (min "
            << *std::min_element(loads.begin(), loads.end()) << ", max "
            << *std::max_element(loads.begin(), loads.end()) << ")\n";
  EXPECT_NEAR(mean, GetParam().load, GetParam().tolerance);
  EXPECT_EQ(select_swf_jobs(trace, {512, 8000, std::nullopt}).records_read, GetParam().records_read);
}

INSTANTIATE_TEST_SUITE_P(Sec7, PaperDowneyLoad,
                         ::testing::Values(PaperLoadCase{"SDSC-Par-1996-3.1-cln.swf.gz", 267.0, 4.0, 8006},
                                           PaperLoadCase{"OSC-Clust-2000-3.1-cln.swf.gz", 12.4, 0.3, 8096}),
                         [](const ::testing::TestParamInfo<PaperLoadCase>& param_info) {
                           return param_info.param.file.substr(0, param_info.param.file.find('-'));
                         });

}  // namespace
}  // namespace cosched::online
