// Instance JSON and Schedule JSON (docs/formats.md), SWF traces.
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sched/schedule_document.hpp"
#include "cosched/online/jobs_csv.hpp"
#include "cosched/online/swf.hpp"
#include "targets.hpp"

#include <stdexcept>
#include <string>

namespace cosched::fuzz {
namespace {

// Two resources (2 cores, 1 fast chunk) and two tasks: schedules are checked against it.
const sched::Instance& fixed_instance() {
  static const sched::Instance instance = sched::parse_instance(R"({
    "resources": [{"name": "cores", "capacity": 2}, {"name": "fast_chunks", "capacity": 1}],
    "tasks": [{"id": "a", "times": [null, null, 4.0, 3.0, 2.0, 1.5]},
              {"id": "b", "times": [null, null, 2.0, 2.0, 1.0, 1.0]}]})",
                                                                "fixed-instance.json");
  return instance;
}

}  // namespace

void instance_json(std::string_view input) { (void)sched::parse_instance(input, "fuzz-instance.json"); }

void schedule_json(std::string_view input) {
  // The document alone (resources, bandwidth model, traffic) reads back the same once written; then it is matched
  // to an instance.
  const sched::ScheduleDocument document = sched::parse_schedule_document(input, "fuzz-schedule.json");
  const std::string written = sched::schedule_document_to_json(document);
  if (sched::schedule_document_to_json(sched::parse_schedule_document(written, "written")) != written) {
    throw std::logic_error("schedule_document_to_json does not read back the same");
  }
  (void)sched::match_schedule(document, fixed_instance(), "fuzz-schedule.json");
}

void cluster_manifest(std::string_view input) {
  const sched::ClusterManifest manifest = sched::parse_cluster_manifest(input, "fuzz-manifest.json");
  const std::string written = sched::cluster_manifest_to_json(manifest);
  if (sched::cluster_manifest_to_json(sched::parse_cluster_manifest(written, "written")) != written) {
    throw std::logic_error("cluster_manifest_to_json does not read back the same");
  }
}

void swf_trace(std::string_view input) {
  using namespace online;
  const SwfTrace trace = read_swf_bytes(input, "fuzz.swf");
  if (parse_swf(to_swf(trace), trace.source) != trace) throw std::logic_error("to_swf does not read back the same");
  // A small machine, so that a header's absurd MaxProcs does not size the allocation space.
  (void)workload_from_swf(trace, {64, 200, std::nullopt});
  (void)workload_from_swf(trace, {64, 200, 1});
}

void jobs_csv(std::string_view input) {
  using namespace online;
  const std::vector<JobRecord> records = parse_jobs_csv(input, "fuzz.csv");
  if (parse_jobs_csv(to_jobs_csv(records), "again.csv") != records) {
    throw std::logic_error("to_jobs_csv does not read back the same");
  }
  (void)to_swf(swf_of_jobs(records, 64, {}));
}

}  // namespace cosched::fuzz
