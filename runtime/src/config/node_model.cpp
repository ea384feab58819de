// The node model's queries (curve interpolation, the pool of a tier), its JSON form, and the staleness warnings.
#include "cosched/config/node_model.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>
#include <ctime>

#include "cosched/common/error.hpp"

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

// ---- time and host ------------------------------------------------------------------------------------------

std::string this_host_name() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0') return "unknown";
  return std::string(name.data());
}

std::string iso8601_utc(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec);
}

std::chrono::system_clock::time_point parse_iso8601_utc(std::string_view text, const std::string& where) {
  const auto refuse = [&] {
    throw InputError(where, fmt::format("date \"{}\" is not an ISO-8601 UTC time like 2026-11-22T13:50:00Z", text));
  };
  constexpr std::string_view shape = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != shape.size()) refuse();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (shape[i] == 'd' ? !digit : text[i] != shape[i]) refuse();
  }
  const auto number = [&](std::size_t at, std::size_t length) {
    int value = 0;
    for (std::size_t i = at; i < at + length; ++i) value = value * 10 + (text[i] - '0');
    return value;
  };
  // system_clock counts nanoseconds in 64 bits: 1677..2262. A calibration is made after 1970 and before 2200.
  constexpr int kFirstYear = 1970;
  constexpr int kLastYear = 2200;
  const int year = number(0, 4);
  if (year < kFirstYear || year > kLastYear) {
    throw InputError(where, fmt::format("date \"{}\": the year must be {} to {}", text, kFirstYear, kLastYear));
  }
  std::tm utc{};
  utc.tm_year = year - 1900;
  utc.tm_mon = number(5, 2) - 1;
  utc.tm_mday = number(8, 2);
  utc.tm_hour = number(11, 2);
  utc.tm_min = number(14, 2);
  utc.tm_sec = number(17, 2);
  const std::tm asked = utc;
  const std::time_t seconds = timegm(&utc);
  // timegm normalises 2026-02-30 into March: a date that changed was not a date.
  if (seconds == static_cast<std::time_t>(-1) || utc.tm_year != asked.tm_year || utc.tm_mon != asked.tm_mon ||
      utc.tm_mday != asked.tm_mday || utc.tm_hour != asked.tm_hour || utc.tm_min != asked.tm_min ||
      utc.tm_sec != asked.tm_sec) {
    refuse();
  }
  return std::chrono::system_clock::from_time_t(seconds);
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

std::size_t check_node_model_age(const NodeModel& model, std::FILE* warn) {
  const auto warnings = node_model_warnings(model, std::chrono::system_clock::now(), this_host_name());
  for (const std::string& warning : warnings) fmt::print(warn, "cosched: warning: {}\n", warning);
  return warnings.size();
}

}  // namespace cosched::config
