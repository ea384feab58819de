#pragma once
// Campaigns (seed 002, Emeras et al., OStrich): the sets of jobs a user submits together and waits for. They are
// either detected in a trace, per user, over the user's jobs sorted by submit time (ties: job index) with one of
// Zakay & Feitelson's rules, or given explicitly by a node workload (JobArrival::campaign). Detection reads the
// *logged* end of each job (JobArrival::logged_end: submit + wait + run time in the log); a job whose log has no
// wait time ends, for the rules, at release + its reference time (as if it had not waited).
//
// The rules, for the next job j of a user (submitted at r_j) against the user's current campaign:
//   last    (Shmueli & Feitelson): j joins when r_j <= the logged end of the user's immediately preceding job;
//   arrival: j joins when r_j - r_(previous job) <= kArrivalThreshold;
//   max     (the rule OStrich's experiment adopts): j joins when r_j <= the latest logged end among the campaign's
//           jobs so far (it overlaps at least one of them).
// Every comparison is "<=": a job submitted exactly when the previous one ends (or exactly the threshold later)
// joins. Jobs of different users are never in one campaign; the user "" (unknown) is one user.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/online/workload.hpp"

namespace cosched::online {

enum class CampaignRule { last, arrival, max };

// The ARRIVAL rule's inter-arrival threshold: 20 minutes, the think-time threshold Zakay & Feitelson use to split
// sessions (the OStrich text gives no value).
inline constexpr double kArrivalThreshold = 20.0 * 60.0;

// When `job` ended in its log (JobArrival::logged_end), or release + reference time when the log does not say: the
// end the campaign rules and the closed-loop replay (sim/replay.hpp) read.
[[nodiscard]] double logged_end(const OnlineWorkload& workload, std::size_t job);

// "last", "arrival", "max"; throws UsageError naming the known ones otherwise.
[[nodiscard]] CampaignRule campaign_rule(std::string_view name);
[[nodiscard]] std::string_view campaign_rule_name(CampaignRule rule) noexcept;

// The campaign of every job (indexed like the workload's jobs): ids 0, 1, ... numbered in the order of the
// campaigns' first jobs (by submit time, ties: job index).
[[nodiscard]] std::vector<std::size_t> detect_campaigns(const OnlineWorkload& workload, CampaignRule rule);

// The campaigns a node workload gives: the jobs with the same user and campaign label form one campaign, numbered
// like detect_campaigns; a job without a label is a campaign of its own. Empty when no job has a label.
[[nodiscard]] std::vector<std::size_t> given_campaigns(const OnlineWorkload& workload);

}  // namespace cosched::online
