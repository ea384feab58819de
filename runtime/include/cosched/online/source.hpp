#pragma once
// Where an online replay's jobs come from, as `cosched online` names them: an SWF trace (optionally cut to a window
// of submit dates, moldable by the Downey model) or the paper's synthetic sequential workload. The command line
// fills an OnlineSource and calls workload_from_source; a library user does the same. (A node workload — an
// Instance JSON whose tasks carry release_s — is online_workload_from_instance, workload.hpp.)
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/online/swf.hpp"
#include "cosched/online/workload.hpp"

namespace cosched::online {

struct OnlineSource {
  std::string trace;  // SWF trace (plain or gzip); empty: the synthetic workload
  // Trace only: jobs submitted from `from` (00:00 UTC) up to `to` inclusive, both YYYY-MM-DD; empty: no edge.
  std::string from;
  std::string to;
  std::optional<int> procs;                // m (trace: default its MaxProcs; synthetic: SyntheticOptions' 300)
  std::optional<std::size_t> jobs;         // trace: the first N usable jobs; synthetic: N jobs (default 20000)
  std::optional<std::uint64_t> downey_seed;  // trace: moldable jobs by the Downey model, with this seed
  double delta = 10.0;                     // synthetic: the largest over the smallest job size
  double load = 270.0;                     // synthetic: target load
  std::uint64_t seed = 1;                  // synthetic: seed
};

// The Unix time a --from / --to date names (`flag` is the flag's name in the message); `day_after` moves it to the
// end of that day (--to is inclusive); nullopt for an empty text. Throws UsageError for a text that is not a date
// YYYY-MM-DD with year >= 1970.
[[nodiscard]] std::optional<std::int64_t> date_flag(const std::string& text, std::string_view flag, bool day_after);

// The trace's jobs within [from, to] (the whole trace without dates). Throws UsageError for a bad date or from after
// to, and load_swf's / swf_window's errors.
[[nodiscard]] SwfTrace trace_in_window(const OnlineSource& source);

// The online workload of `source`: the trace (in its window) as workload_from_swf makes it, or the synthetic one.
[[nodiscard]] OnlineWorkload workload_from_source(const OnlineSource& source);

// The campaigns of a run: detected by `campaign_rule` (campaigns.hpp: last, arrival, max) when it is given, else
// those a node workload's tasks give (given_campaigns), else none (empty).
[[nodiscard]] std::vector<std::size_t> campaigns_of(const OnlineWorkload& workload, std::string_view campaign_rule);

}  // namespace cosched::online
