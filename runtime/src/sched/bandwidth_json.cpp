#include "sched/bandwidth_json.hpp"

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/common/json_input.hpp"

namespace cosched::sched::detail {

using nlohmann::json;

namespace {

constexpr double kMaxBytesPerSecond = 1e15;  // 1 PB/s: far beyond any memory
constexpr double kMaxTrafficBytes = 1e21;    // 1 ZB over a task's run

std::vector<double> numbers(const json& value, const Range& range, const std::string& where, std::string_view name) {
  const json& array = json_to_array(value, where, name);
  std::vector<double> out;
  out.reserve(array.size());
  for (std::size_t k = 0; k < array.size(); ++k) {
    out.push_back(json_to_number(array[k], range, where, fmt::format("{}[{}]", name, k)));
  }
  return out;
}

// The members of `object` (at `here`), one per pool of `model` in the model's order, each read by `read(value,
// pool name)`: a pool the object does not name, or a name the model does not have, is an InputError.
template <class Value, class Read>
std::vector<Value> per_pool(const json& object, const BandwidthModel& model, const std::string& here, Read read) {
  require_json_object(object, here);
  if (model.empty()) throw InputError(here, "the document has no \"bandwidth\" model naming the memory pools");
  std::vector<Value> values;
  values.reserve(model.pools.size());
  for (const auto& pool : model.pools) values.push_back(read(json_member(object, pool.name, here), pool.name));
  if (object.size() != model.pools.size()) {
    for (const auto& member : object.items()) {
      bool known = false;
      for (const auto& pool : model.pools) known = known || pool.name == member.key();
      if (!known) throw InputError(here, fmt::format("\"{}\" is not a pool of the bandwidth model", member.key()));
    }
  }
  return values;
}

template <class Values>
json per_pool_to_json(const Values& values, const BandwidthModel& model) {
  json object = json::object();
  for (std::size_t q = 0; q < values.size(); ++q) object[model.pools[q].name] = values[q];
  return object;
}

}  // namespace

BandwidthModel bandwidth_from_json(const json& object, const std::string& source) {
  const std::string where = source + ": bandwidth";
  require_json_object(object, where);
  for (const auto& member : object.items()) {
    if (member.key() != "pools" && member.key() != "provenance") {
      throw InputError(where, fmt::format("unknown key \"{}\" (known: pools, provenance)", member.key()));
    }
  }
  BandwidthModel model;
  const json& pools = json_to_array(json_member(object, "pools", where), where, "\"pools\"");
  for (std::size_t q = 0; q < pools.size(); ++q) {
    const std::string here = fmt::format("{}: pools[{}]", where, q);
    require_json_object(pools[q], here);
    for (const auto& member : pools[q].items()) {
      if (member.key() != "name" && member.key() != "cores" && member.key() != "bytes_per_s") {
        throw InputError(here, fmt::format("unknown key \"{}\" (known: name, cores, bytes_per_s)", member.key()));
      }
    }
    BandwidthPool pool;
    pool.name = json_to_string(json_member(pools[q], "name", here), here, "\"name\"");
    pool.cores = numbers(json_member(pools[q], "cores", here), non_negative_up_to(1e6), here, "cores");
    pool.bytes_per_s =
        numbers(json_member(pools[q], "bytes_per_s", here), non_negative_up_to(kMaxBytesPerSecond), here,
                "bytes_per_s");
    model.pools.push_back(std::move(pool));
  }
  if (const json* provenance = find_json_member(object, "provenance", where)) {
    require_json_object(*provenance, where + ": provenance");
    model.provenance = *provenance;
  }
  check_bandwidth_model(model, where);
  return model;
}

json bandwidth_to_json(const BandwidthModel& model) {
  json pools = json::array();
  for (const auto& pool : model.pools) {
    pools.push_back({{"name", pool.name}, {"cores", pool.cores}, {"bytes_per_s", pool.bytes_per_s}});
  }
  return {{"pools", std::move(pools)}, {"provenance", model.provenance}};
}

std::shared_ptr<const TrafficTable> traffic_from_json(const json& object, const BandwidthModel& model,
                                                      std::size_t entries, const std::string& where) {
  const std::string here = where + ": traffic_bytes";
  return std::make_shared<TrafficTable>(per_pool<std::vector<double>>(
      object, model, here, [&](const json& values, const std::string& pool) {
        std::vector<double> row = numbers(values, non_negative_up_to(kMaxTrafficBytes), here, pool);
        if (row.size() != entries) {
          throw InputError(here, fmt::format("pool \"{}\" has {} entries, expected {} (one per allocation vector)",
                                             pool, row.size(), entries));
        }
        return row;
      }));
}

json traffic_to_json(const TrafficTable& traffic, const BandwidthModel& model) {
  return per_pool_to_json(traffic, model);
}

std::vector<double> traffic_at_from_json(const json& object, const BandwidthModel& model, const std::string& where) {
  const std::string here = where + ": traffic_bytes";
  return per_pool<double>(object, model, here, [&](const json& value, const std::string& pool) {
    return json_to_number(value, non_negative_up_to(kMaxTrafficBytes), here, pool);
  });
}

json traffic_at_to_json(const std::vector<double>& traffic, const BandwidthModel& model) {
  return per_pool_to_json(traffic, model);
}

}  // namespace cosched::sched::detail
