#pragma once
// The summary metrics of an online run recomputed from its per-job rows (the jobs CSV, JobRecord), the way a
// user of the CSV would: what the metrics of `cosched online` must equal when the rows are right. Sums run in row
// order (the workload's), as online_metrics does, so equal means equal to the bit.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <vector>

#include "cosched/online/jobs_csv.hpp"

namespace cosched::test_support {

struct RecomputedMetrics {
  std::size_t completed = 0;
  double max_stretch = 0.0, mean_stretch = 0.0, max_flow = 0.0, mean_flow = 0.0;
  double utilization = 0.0, makespan = 0.0;
  std::size_t campaigns = 0;
  double mean_campaign_stretch = 0.0, max_campaign_stretch = 0.0;
};

inline RecomputedMetrics recompute_metrics(const std::vector<online::JobRecord>& rows, int procs) {
  RecomputedMetrics m;
  double first_release = std::numeric_limits<double>::infinity(), last_end = 0.0, busy = 0.0;
  double stretch_sum = 0.0, flow_sum = 0.0;
  struct Campaign {
    bool complete = true;
    double first = std::numeric_limits<double>::infinity(), last_end = 0.0, work = 0.0, ready = 0.0;
  };
  std::map<std::size_t, Campaign> campaigns;
  for (const auto& row : rows) {
    first_release = std::min(first_release, row.submission_time);
    if (row.campaign) {
      Campaign& c = campaigns[*row.campaign];
      c.complete = c.complete && row.success;
      c.first = std::min(c.first, row.submission_time);
      c.last_end = std::max(c.last_end, row.success ? row.finish_time : 0.0);
      c.work += row.requested_number_of_resources * row.reference_time;
      c.ready = std::max(c.ready, row.submission_time + row.reference_time);
    }
    if (!row.success) continue;
    ++m.completed;
    m.max_stretch = std::max(m.max_stretch, row.stretch);
    m.max_flow = std::max(m.max_flow, row.turnaround_time);
    stretch_sum += row.stretch;
    flow_sum += row.turnaround_time;
    last_end = std::max(last_end, row.finish_time);
    busy += static_cast<double>(row.allocation.front()) * row.execution_time;
  }
  if (m.completed > 0) {
    m.mean_stretch = stretch_sum / static_cast<double>(m.completed);
    m.mean_flow = flow_sum / static_cast<double>(m.completed);
    m.makespan = last_end - first_release;
    if (m.makespan > 0.0) m.utilization = busy / (procs * m.makespan);
  }
  // Campaign stretch (docs/online.md): flow over the ideal flow max(last ready - first release, W / m), summed in
  // campaign order as the metrics do.
  double sum = 0.0;
  for (const auto& [id, c] : campaigns) {
    if (!c.complete) continue;
    const double stretch = (c.last_end - c.first) / std::max(c.ready - c.first, c.work / procs);
    ++m.campaigns;
    sum += stretch;
    m.max_campaign_stretch = std::max(m.max_campaign_stretch, stretch);
  }
  if (m.campaigns > 0) m.mean_campaign_stretch = sum / static_cast<double>(m.campaigns);
  return m;
}

}  // namespace cosched::test_support
