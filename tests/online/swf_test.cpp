// SWF traces: the parser on real excerpts (tests/data/traces), gzip and plain alike, the writer's round trip,
// malformed lines (file:line and the field in the message), corrupt gzip, and the online workload of a trace.
#include "cosched/online/swf.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/online/profiles.hpp"
#include "support/files.hpp"
#include "support/test_data.hpp"

namespace cosched::online {
namespace {

const std::string kSdsc = "traces/SDSC-Par-1996-3.1-cln-first400.swf";
const std::string kKth = "traces/KTH-SP2-1996-2.1-cln-first100.swf";

using test_support::input_error_of;

SwfTrace load_excerpt(const std::string& name) { return load_swf(test::test_data_file(name)); }

TEST(SwfParse, ReadsTheExcerptWithItsHeader) {
  const SwfTrace trace = load_excerpt(kSdsc);
  EXPECT_EQ(trace.header.size(), 64u);
  EXPECT_EQ(trace.header.front(), " Version: 2.2");
  ASSERT_EQ(trace.records.size(), 400u);
  // "    1        0 392395  19025   64  19025    -1   -1     -1    -1  1   4  -1  -1 23  2 -1 -1"
  const SwfRecord& first = trace.records.front();
  EXPECT_EQ(first.job_number, 1);
  EXPECT_EQ(first.submit_time, 0.0);
  EXPECT_EQ(first.wait_time, 392395.0);
  EXPECT_EQ(first.run_time, 19025.0);
  EXPECT_EQ(first.allocated_procs, 64);
  EXPECT_EQ(first.requested_procs, -1);
  EXPECT_EQ(first.status, 1);
  EXPECT_EQ(first.user_id, 4);
  EXPECT_EQ(first.queue, 23);
  EXPECT_EQ(first.partition, 2);
  EXPECT_EQ(first.think_time, -1.0);
  EXPECT_EQ(swf_header_integer(trace, "MaxProcs"), 400);
  EXPECT_EQ(swf_header_integer(trace, "MaxNodes"), 400);  // "400 (48 interactive, 352 batch, ...)"
  EXPECT_EQ(swf_header_integer(trace, "TimeZoneString"), std::nullopt);
  EXPECT_EQ(swf_header_integer(trace, "MaxCores"), std::nullopt);
}

TEST(SwfParse, GzipAndPlainGiveTheSameTrace) {
  SwfTrace plain = load_excerpt(kSdsc);
  SwfTrace compressed = load_excerpt(kSdsc + ".gz");
  EXPECT_NE(compressed.source, plain.source);
  compressed.source = plain.source;
  EXPECT_EQ(compressed, plain);
}

TEST(SwfParse, ConcatenatedGzipMembersAreReadInTurn) {
  const std::string gz = read_text_file(test::test_data_file(kSdsc + ".gz"), "test");
  const SwfTrace twice = read_swf_bytes(gz + gz, "twice.swf.gz");
  EXPECT_EQ(twice.records.size(), 800u);
}

TEST(SwfParse, CorruptGzipIsAClearInputError) {
  const std::string gz = read_text_file(test::test_data_file(kSdsc + ".gz"), "test");
  std::string flipped = gz;
  for (std::size_t i = 100; i < 200; ++i) flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
  EXPECT_NE(input_error_of([&] { (void)read_swf_bytes(flipped, "bad.gz"); }).find("bad.gz: corrupt gzip file"),
            std::string::npos);
  const std::string truncated = gz.substr(0, gz.size() / 2);
  EXPECT_NE(input_error_of([&] { (void)read_swf_bytes(truncated, "cut.gz"); }).find("ends early"), std::string::npos);
  EXPECT_NE(input_error_of([&] { (void)read_swf_bytes(gz + "junk", "tail.gz"); }).find("after the end"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { (void)read_swf_bytes("\x1f\x8b", "magic.gz"); }).find("magic.gz"),
            std::string::npos);
}

TEST(SwfParse, WriterRoundTrips) {
  for (const auto& name : {kSdsc, kKth}) {
    const SwfTrace trace = load_excerpt(name);
    const SwfTrace again = parse_swf(to_swf(trace), trace.source);
    EXPECT_EQ(again, trace) << name;
    EXPECT_EQ(to_swf(again), to_swf(trace));
  }
  // Fractions, -1 and large values survive too.
  SwfTrace trace;
  trace.source = "x";
  trace.header = {" MaxProcs: 8", ""};
  SwfRecord record;
  record.job_number = 9007199254740992;
  record.submit_time = 0.1;
  record.run_time = 123456789.125;
  record.average_cpu_time = 1e-7;
  record.allocated_procs = 8;
  trace.records = {record, SwfRecord{}};
  EXPECT_EQ(parse_swf(to_swf(trace), "x"), trace);
}

TEST(SwfParse, SkipsBlankLinesAndAcceptsCrlf) {
  const std::string line = "1 0 5 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1";
  const SwfTrace trace = parse_swf("; MaxProcs: 4\r\n\r\n   \n" + line + "\r\n\t" + line + "\n", "crlf.swf");
  EXPECT_EQ(trace.header, std::vector<std::string>{" MaxProcs: 4"});
  EXPECT_EQ(trace.records.size(), 2u);
  EXPECT_EQ(swf_field_names().size(), 18u);
}

struct BadLine {
  std::string name;
  std::string line;
  std::string message;  // after "bad.swf:3: "
};

void PrintTo(const BadLine& c, std::ostream* out) { *out << c.name; }

class SwfRejects : public ::testing::TestWithParam<BadLine> {};

TEST_P(SwfRejects, WithTheLineNumberAndTheField) {
  const std::string text =
      "; header\n1 0 5 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1\n" + GetParam().line + "\n2 0 5 10 2\n";
  const std::string message = input_error_of([&] { (void)parse_swf(text, "bad.swf"); });
  EXPECT_EQ(message.rfind("bad.swf:3: ", 0), 0u) << message;
  EXPECT_NE(message.find(GetParam().message), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Lines, SwfRejects,
    ::testing::Values(
        BadLine{"seventeen_fields", "2 0 5 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1",
                "17 fields, a job line has 18 (missing: field 18, think_time)"},
        BadLine{"nineteen_fields", "2 0 5 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1 7", "more than 18 fields"},
        BadLine{"word", "2 0 5 ten 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1", "field 4 (run_time) is not a number"},
        BadLine{"trailing_letters", "2 0 5 10 2x -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1",
                "field 5 (allocated_procs) is not a number"},
        BadLine{"nan", "2 nan 5 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1", "field 2 (submit_time) must be finite"},
        BadLine{"infinity", "2 0 inf 10 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1", "field 3 (wait_time) must be finite"},
        BadLine{"overflow", "2 0 5 1e999 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1", "field 4 (run_time) is out of range"},
        BadLine{"negative", "2 0 5 10 2 -1 -1 2 20 -1 1 -2 -1 -1 -1 -1 -1 -1", "field 12 (user_id) is negative"},
        BadLine{"negative_fraction", "2 0 5 -0.5 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1",
                "field 4 (run_time) is negative"},
        BadLine{"fraction_in_integer", "2 0 5 10 2.5 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1",
                "field 5 (allocated_procs) must be an integer"},
        BadLine{"absurd_time", "2 0 5 1e12 2 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1", "field 4 (run_time) is above"},
        BadLine{"absurd_procs", "2 0 5 10 99999999 -1 -1 2 20 -1 1 3 -1 -1 -1 -1 -1 -1",
                "field 5 (allocated_procs) is above"},
        BadLine{"long_line", std::string(5000, ' ') + "2", "the line has 5001 characters"}),
    [](const ::testing::TestParamInfo<BadLine>& param_info) { return param_info.param.name; });

TEST(SwfWorkload, RigidJobsFromTheExcerpt) {
  const SwfTrace trace = load_excerpt(kSdsc);
  const auto workload = workload_from_swf(trace, {});
  ASSERT_EQ(workload.instance.task_count(), 400u);
  EXPECT_EQ(workload.name, "SDSC-Par-1996-3.1-cln-first400");
  EXPECT_EQ(workload.instance.resources()[0].capacity, 400);  // the header's MaxProcs
  EXPECT_EQ(workload.instance.tasks()[0].id, "job-1");
  EXPECT_EQ(workload.arrivals[0].release, 0.0);
  EXPECT_EQ(workload.arrivals[1].release, 172211.0);
  EXPECT_EQ(workload.arrivals[0].user, "4");
  EXPECT_EQ(workload.arrivals[0].estimate, std::nullopt);  // SDSC Par logs no requested time
  EXPECT_EQ(workload.reference_time[0], 19025.0);           // a rigid job's least-area allocation: its size
  EXPECT_EQ(workload.reference_alloc[0], 64u);
  EXPECT_NE(workload.source.find("rigid"), std::string::npos) << workload.source;
}

TEST(SwfWorkload, OptionsChooseMachineJobsAndModel) {
  const SwfTrace trace = load_excerpt(kSdsc);
  const auto first = workload_from_swf(trace, {512, 100, 7});
  ASSERT_EQ(first.instance.task_count(), 100u);
  EXPECT_EQ(first.instance.resources()[0].capacity, 512);
  const auto* profile = dynamic_cast<const DowneyProfile*>(first.instance.tasks()[0].profile.get());
  ASSERT_NE(profile, nullptr);
  // The stretch reference of a moldable job is its sequential time p_{i,1} = runtime x S(p).
  EXPECT_EQ(first.reference_time[0], profile->job().sequential_time);
  EXPECT_EQ(first.reference_alloc[0], 1u);
  EXPECT_EQ(first.reference_time[0], 19025.0 * downey_speedup(64, profile->job().parallelism, profile->job().sigma));
  EXPECT_NE(first.source.find("Downey"), std::string::npos);
  EXPECT_EQ(workload_from_swf(trace, {512, 100, 7}).reference_time, first.reference_time);
  // A machine narrower than some jobs: they are dropped and counted.
  const auto selection = select_swf_jobs(trace, {32, std::nullopt, std::nullopt});
  EXPECT_GT(selection.wider_than_machine, 0u);
  EXPECT_EQ(selection.kept.size() + selection.wider_than_machine, 400u);
}

TEST(SwfWorkload, EstimatesAndRequestedProcsFromKth) {
  const auto workload = workload_from_swf(load_excerpt(kKth), {});
  EXPECT_EQ(workload.instance.tasks()[0].id, "job-15");
  EXPECT_EQ(workload.arrivals[0].estimate, 53940.0);
  EXPECT_EQ(workload.instance.resources()[0].capacity, 100);
}

TEST(SwfWorkload, DropsJobsWithoutRunTimeOrSizeAndSaysSo) {
  const SwfTrace trace = parse_swf(
      "1 100 0 10 2 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
      "2 110 0 0 2 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"    // ran 0 s
      "3 120 0 10 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"  // no size at all
      "4 130 0 10 -1 -1 -1 3 -1 -1 0 -1 -1 -1 -1 -1 -1 -1\n"   // requested 3, failed: kept
      "5 -1 0 10 2 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n",    // no submit time
      "small.swf");
  const auto selection = select_swf_jobs(trace, {});
  EXPECT_EQ(selection.kept, (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(selection.sizes, (std::vector<int>{2, 3}));
  EXPECT_EQ(selection.procs, 3);  // no MaxProcs header: the widest kept job
  EXPECT_EQ(selection.without_run_time, 1u);
  EXPECT_EQ(selection.without_size, 1u);
  EXPECT_EQ(selection.without_submit_time, 1u);
  const auto workload = workload_from_swf(trace, {});
  EXPECT_EQ(workload.arrivals[1].release, 30.0);
  EXPECT_EQ(workload.arrivals[1].user, "");
  EXPECT_NE(workload.source.find("1 with run time 0 or unknown"), std::string::npos) << workload.source;
}

TEST(SwfWorkload, RefusesWhatCannotBeAWorkload) {
  const std::string zero = "1 0 0 0 2 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n";
  EXPECT_NE(input_error_of([&] { (void)workload_from_swf(parse_swf(zero, "z.swf"), {}); }).find("no usable job"),
            std::string::npos);
  const std::string twice =
      "7 0 0 5 2 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n7 1 0 5 2 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n";
  EXPECT_NE(input_error_of([&] { (void)workload_from_swf(parse_swf(twice, "t.swf"), {}); }).find("job number 7"),
            std::string::npos);
  const SwfTrace excerpt = load_excerpt(kSdsc);
  EXPECT_THROW((void)workload_from_swf(excerpt, {0, std::nullopt, std::nullopt}), InputError);
  EXPECT_THROW((void)workload_from_swf(excerpt, {std::nullopt, 0, std::nullopt}), InputError);
  const std::string header = "; MaxProcs: 0\n1 0 0 5 2 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n";
  EXPECT_NE(input_error_of([&] { (void)workload_from_swf(parse_swf(header, "h.swf"), {}); }).find("MaxProcs"),
            std::string::npos);
}

}  // namespace
}  // namespace cosched::online
