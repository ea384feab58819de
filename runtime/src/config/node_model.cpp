// The node model's queries (curve interpolation, the pool of a tier), its JSON form, and the staleness warnings.
#include "cosched/config/node_model.hpp"

#include "cosched/common/reporter.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>
#include <ctime>

#include "cosched/common/error.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/utc_time.hpp"

namespace cosched::config {

bool MemoryPool::holds_tier(std::string_view tier) const {
  return std::find(tiers.begin(), tiers.end(), tier) != tiers.end();
}

bool NodeModel::has_tier(std::string_view tier) const {
  return std::any_of(pools.begin(), pools.end(), [&](const MemoryPool& pool) { return pool.holds_tier(tier); });
}

const MemoryPool& NodeModel::pool_of_tier(std::string_view tier) const {
  for (const MemoryPool& pool : pools) {
    if (pool.holds_tier(tier)) return pool;
  }
  throw InputError(provenance.source, fmt::format("no memory pool of the node model holds the {} tier", tier));
}

bool NodeModel::tiers_share_one_pool() const {
  return std::any_of(pools.begin(), pools.end(),
                     [](const MemoryPool& pool) { return pool.holds_tier(kFastTier) && pool.holds_tier(kSlowTier); });
}

namespace {

nlohmann::json curve_json(const BandwidthCurve& curve) { return {{"cores", curve.cores}, {"gbs", curve.gbs}}; }

}  // namespace

void to_json(nlohmann::json& json, const NodeModel& model) {
  const NodeProvenance& p = model.provenance;
  nlohmann::json pools = nlohmann::json::array();
  for (const MemoryPool& pool : model.pools) {
    nlohmann::json kernels = nlohmann::json::object();
    for (const auto& [kernel, curve] : pool.kernels) kernels[kernel] = curve_json(curve);
    nlohmann::json entry = curve_json(pool.bandwidth);
    entry["name"] = pool.name;
    entry["tiers"] = pool.tiers;
    entry["kernels"] = std::move(kernels);
    pools.push_back(std::move(entry));
  }
  json = {{"provenance",
           {{"host", p.host},
            {"date", p.date},
            {"method", p.method},
            {"cosched_version", p.cosched_version},
            {"source", p.source},
            {"tier_backend", p.tier_backend},
            {"emulated", p.emulated},
            {"references", p.references}}},
          {"pools", std::move(pools)}};
}

// ---- staleness ----------------------------------------------------------------------------------------------

std::vector<std::string> node_model_warnings(const NodeModel& model, std::chrono::system_clock::time_point now,
                                             std::string_view this_host) {
  const NodeProvenance& p = model.provenance;
  std::vector<std::string> warnings;
  if (p.documented()) return warnings;  // published figures for another machine: neither old nor foreign
  const std::string remedy = "run `cosched calibrate --output FILE` on this machine for a current one";
  try {
    const auto age = now - parse_iso8601_utc(p.date, p.source);
    const auto days = std::chrono::duration_cast<std::chrono::hours>(age).count() / 24;
    if (days > kNodeModelMaxAgeDays) {
      warnings.push_back(fmt::format("{}: the node model was calibrated {} days ago ({}), more than {}: {}", p.source,
                                     days, p.date, kNodeModelMaxAgeDays, remedy));
    }
  } catch (const InputError& e) {
    warnings.push_back(fmt::format("{}; {}", e.what(), remedy));
  }
  if (p.host != this_host) {
    warnings.push_back(fmt::format("{}: the node model was calibrated on host \"{}\", this is \"{}\": {}", p.source,
                                   p.host, this_host, remedy));
  }
  return warnings;
}

std::size_t check_node_model_age(const NodeModel& model, Reporter& reporter) {
  const auto warnings = node_model_warnings(model, std::chrono::system_clock::now(), host_name());
  for (const std::string& warning : warnings) reporter.warning("cosched: warning: " + warning);
  return warnings.size();
}

}  // namespace cosched::config
