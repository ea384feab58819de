// The online workload of a source as `cosched online` describes it (source.hpp): a trace cut to a window of dates
// is the trace's own window made into a workload, the synthetic source is the synthetic generator with the same
// options, bad dates are usage errors naming the flag, and the campaigns of a run follow the rule when given.
#include <gtest/gtest.h>

#include <string>

#include "cosched/common/error.hpp"
#include "cosched/online/campaigns.hpp"
#include "cosched/online/source.hpp"
#include "cosched/online/swf.hpp"
#include "cosched/online/swf_window.hpp"
#include "cosched/online/synthetic.hpp"

namespace cosched::online {
namespace {

const std::string kTrace = std::string(COSCHED_TEST_DATA_DIR) + "/traces/KTH-SP2-1996-2.1-cln-first100.swf";

void expect_same_jobs(const OnlineWorkload& a, const OnlineWorkload& b) {
  EXPECT_EQ(a.source, b.source);
  ASSERT_EQ(a.arrivals.size(), b.arrivals.size());
  for (std::size_t j = 0; j < a.arrivals.size(); ++j) {
    EXPECT_EQ(a.instance.tasks()[j].id, b.instance.tasks()[j].id) << "job " << j;
    EXPECT_EQ(a.arrivals[j].release, b.arrivals[j].release) << "job " << j;
    EXPECT_EQ(a.reference_time[j], b.reference_time[j]) << "job " << j;
  }
}

TEST(OnlineSource, ATraceWindowIsTheTracesOwnWindowInclusiveOfTheLastDay) {
  OnlineSource source;
  source.trace = kTrace;
  source.from = "1996-09-30";
  source.to = "1996-09-30";
  source.jobs = 40;
  const OnlineWorkload workload = workload_from_source(source);
  const auto day = parse_utc_date("1996-09-30");
  ASSERT_TRUE(day.has_value());
  SwfOptions options;
  options.max_jobs = 40;
  const OnlineWorkload expected = workload_from_swf(swf_window(load_swf(kTrace), *day, *day + 86400), options);
  expect_same_jobs(workload, expected);
  // A strict part of the trace: the window cut something.
  EXPECT_LT(workload.arrivals.size(), workload_from_swf(load_swf(kTrace), {}).arrivals.size());
  EXPECT_GT(workload.arrivals.size(), 0u);
}

TEST(OnlineSource, TheWholeTraceWithoutDates) {
  OnlineSource source;
  source.trace = kTrace;
  source.procs = 100;
  SwfOptions options;
  options.procs = 100;
  expect_same_jobs(workload_from_source(source), workload_from_swf(load_swf(kTrace), options));
}

TEST(OnlineSource, TheSyntheticSourceIsTheGeneratorWithTheSameOptions) {
  const SyntheticOptions options{50, 16, 5.0, 12.0, 7};  // jobs, procs, delta, load, seed
  OnlineSource source;
  source.jobs = options.jobs;
  source.procs = options.procs;
  source.delta = options.delta;
  source.load = options.load;
  source.seed = options.seed;
  expect_same_jobs(workload_from_source(source), make_synthetic_workload(options));
  // The generator's own processor count where the source leaves it unset.
  source.procs.reset();
  EXPECT_EQ(workload_from_source(source).instance.resources().front().capacity, SyntheticOptions{}.procs);
}

TEST(OnlineSource, DatesAreCheckedAsFlags) {
  EXPECT_EQ(date_flag("", "--from", false), std::nullopt);
  EXPECT_EQ(date_flag("1970-01-02", "--from", false), 86400);
  EXPECT_EQ(date_flag("1970-01-02", "--to", true), 2 * 86400);
  try {
    (void)date_flag("1996-13-01", "--to", true);
    FAIL() << "a month 13 was accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--to: '1996-13-01' is not a date YYYY-MM-DD (year >= 1970)");
  }
  OnlineSource source;
  source.trace = kTrace;
  source.from = "1996-10-02";
  source.to = "1996-10-01";
  EXPECT_THROW((void)trace_in_window(source), UsageError);
}

TEST(OnlineSource, CampaignsFollowTheRuleWhenGivenElseTheWorkloads) {
  const OnlineWorkload workload = workload_from_swf(load_swf(kTrace), {});
  EXPECT_EQ(campaigns_of(workload, "arrival"), detect_campaigns(workload, CampaignRule::arrival));
  EXPECT_EQ(campaigns_of(workload, "last"), detect_campaigns(workload, CampaignRule::last));
  EXPECT_EQ(campaigns_of(workload, ""), given_campaigns(workload));
  EXPECT_THROW((void)campaigns_of(workload, "bogus"), UsageError);
}

}  // namespace
}  // namespace cosched::online
