#include "cosched/online/source.hpp"

#include <fmt/core.h>

#include "cosched/common/error.hpp"
#include "cosched/online/campaigns.hpp"
#include "cosched/online/swf_window.hpp"
#include "cosched/online/synthetic.hpp"

namespace cosched::online {

std::optional<std::int64_t> date_flag(const std::string& text, std::string_view flag, bool day_after) {
  if (text.empty()) return std::nullopt;
  const auto date = parse_utc_date(text);
  if (!date) throw UsageError(fmt::format("{}: '{}' is not a date YYYY-MM-DD (year >= 1970)", flag, text));
  return day_after ? *date + 86400 : *date;
}

SwfTrace trace_in_window(const OnlineSource& source) {
  const auto from = date_flag(source.from, "--from", false);
  const auto to = date_flag(source.to, "--to", true);
  if (from && to && *from >= *to) {
    throw UsageError(fmt::format("--from {} is after --to {}", source.from, source.to));
  }
  SwfTrace trace = load_swf(source.trace);
  if (!from && !to) return trace;
  return swf_window(trace, from, to);
}

OnlineWorkload workload_from_source(const OnlineSource& source) {
  if (!source.trace.empty()) {
    SwfOptions options;
    options.procs = source.procs;
    options.max_jobs = source.jobs;
    options.downey_seed = source.downey_seed;
    return workload_from_swf(trace_in_window(source), options);
  }
  SyntheticOptions options;
  options.jobs = source.jobs.value_or(options.jobs);
  options.procs = source.procs.value_or(options.procs);
  options.delta = source.delta;
  options.load = source.load;
  options.seed = source.seed;
  return make_synthetic_workload(options);
}

std::vector<std::size_t> campaigns_of(const OnlineWorkload& workload, std::string_view campaign_rule) {
  if (!campaign_rule.empty()) return detect_campaigns(workload, online::campaign_rule(campaign_rule));
  return given_campaigns(workload);
}

}  // namespace cosched::online
