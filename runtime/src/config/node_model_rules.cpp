// The rules of a node model (node_model_rules.hpp), and check_node_model for models built in code.
#include "node_model_rules.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/utc_time.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::config::node_rules {
namespace {

void check_text(const std::string& value, const Locate& locate, const std::string& key) {
  if (value.empty()) throw InputError(locate(key), fmt::format("key '{}' must not be empty", key));
}

void check_provenance(const NodeProvenance& p, const Locate& locate) {
  check_text(p.host, locate, "provenance.host");
  check_text(p.method, locate, "provenance.method");
  check_text(p.cosched_version, locate, "provenance.cosched_version");
  (void)parse_iso8601_utc(p.date, locate("provenance.date"));
  // A concrete backend: the one the numbers were measured with ("auto" would not say which).
  auto names = platform::tier_backend_names();
  names.erase(std::remove(names.begin(), names.end(), "auto"), names.end());
  if (std::find(names.begin(), names.end(), p.tier_backend) == names.end()) {
    throw InputError(locate("provenance.tier_backend"),
                     fmt::format("key 'provenance.tier_backend': unknown backend '{}' (known: {})", p.tier_backend,
                                 fmt::join(names, ", ")));
  }
  for (std::size_t i = 0; i < p.references.size(); ++i) {
    check_text(p.references[i], locate, fmt::format("provenance.references[{}]", i));
  }
}

// `name` is the curve's key prefix: "pools[0]" or "pools[0].kernels.triad".
void check_curve(const BandwidthCurve& curve, const Locate& locate, const std::string& name) {
  const std::string cores_key = name + ".cores";
  const std::string gbs_key = name + ".gbs";
  if (curve.cores.empty()) throw InputError(locate(cores_key), fmt::format("key '{}' must not be empty", cores_key));
  if (curve.gbs.size() != curve.cores.size()) {
    throw InputError(locate(gbs_key), fmt::format("key '{}' has {} values but '{}' has {}: one per core count",
                                                  gbs_key, curve.gbs.size(), cores_key, curve.cores.size()));
  }
  for (std::size_t i = 0; i < curve.cores.size(); ++i) {
    (void)checked_count(curve.cores[i], 1, kMaxCores, locate(cores_key), fmt::format("key '{}' [{}]", cores_key, i));
    if (i > 0 && curve.cores[i] <= curve.cores[i - 1]) {
      throw InputError(locate(cores_key), fmt::format("key '{}' must be ascending without repeats: {} follows {}",
                                                      cores_key, curve.cores[i], curve.cores[i - 1]));
    }
    (void)checked_number(curve.gbs[i], positive_up_to(kMaxPoolGbs), locate(gbs_key),
                         fmt::format("key '{}' [{}]", gbs_key, i));
  }
}

void check_pool(const MemoryPool& pool, const Locate& locate, const std::string& name) {
  check_identifier(pool.name, locate(name + ".name"));
  const std::string tiers_key = name + ".tiers";
  if (pool.tiers.empty()) {
    throw InputError(locate(tiers_key), fmt::format("key '{}' must name at least one of \"fast\", \"slow\"",
                                                    tiers_key));
  }
  std::set<std::string> seen;
  for (const std::string& tier : pool.tiers) {
    if (tier != kFastTier && tier != kSlowTier) {
      throw InputError(locate(tiers_key), fmt::format("key '{}': unknown tier \"{}\" (known: fast, slow)", tiers_key,
                                                      tier));
    }
    if (!seen.insert(tier).second) {
      throw InputError(locate(tiers_key), fmt::format("key '{}' names the {} tier twice", tiers_key, tier));
    }
  }
  check_curve(pool.bandwidth, locate, name);
  for (const auto& [kernel, curve] : pool.kernels) {
    const std::string kernel_key = fmt::format("{}.kernels.{}", name, kernel);
    check_identifier(kernel, locate(kernel_key));
    check_curve(curve, locate, kernel_key);
  }
}

// Every tier of the node streams from exactly one pool: "slow" always, "fast" when the node has one.
void check_tiers_cover(const NodeModel& model, const Locate& locate) {
  for (const std::string_view tier : {kFastTier, kSlowTier}) {
    std::string first;
    for (std::size_t i = 0; i < model.pools.size(); ++i) {
      if (!model.pools[i].holds_tier(tier)) continue;
      if (!first.empty()) {
        const std::string key = fmt::format("pools[{}].tiers", i);
        throw InputError(locate(key), fmt::format("key '{}': the {} tier is already in pool \"{}\"; every tier "
                                                  "streams from exactly one pool",
                                                  key, tier, first));
      }
      first = model.pools[i].name;
    }
  }
  if (!model.has_tier(kSlowTier)) {
    throw InputError(locate("pools"), "no pool holds the slow tier: every node has one (a node with a fast tier "
                                      "needs a pool for each tier, or one pool for both)");
  }
  if (model.provenance.emulated && !model.tiers_share_one_pool()) {
    throw InputError(locate("provenance.emulated"),
                     "an emulated fast tier is the same memory as the slow tier: one pool must hold tiers "
                     "[\"fast\", \"slow\"]");
  }
}

}  // namespace

void check_model(const NodeModel& model, const Locate& locate) {
  check_provenance(model.provenance, locate);
  if (model.pools.empty() || model.pools.size() > kMaxMemoryPools) {
    throw InputError(locate("pools"), fmt::format("a node model needs 1 to {} [[pools]], got {}", kMaxMemoryPools,
                                                  model.pools.size()));
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < model.pools.size(); ++i) {
    const std::string name = fmt::format("pools[{}]", i);
    check_pool(model.pools[i], locate, name);
    if (!names.insert(model.pools[i].name).second) {
      throw InputError(locate(name + ".name"), fmt::format("key '{}.name': pool \"{}\" appears twice", name,
                                                           model.pools[i].name));
    }
  }
  check_tiers_cover(model, locate);
}

}  // namespace cosched::config::node_rules

namespace cosched::config {

void check_node_model(const NodeModel& model) {
  // The messages name the key; a model built in code has no lines to add.
  node_rules::check_model(model, [&model](std::string_view) { return model.provenance.source; });
}

}  // namespace cosched::config
