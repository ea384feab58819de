// The node file: its one reader (parse_node_toml, load_node_model) and its one writer (to_toml).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/toml_table.hpp"
#include "node_model_rules.hpp"

namespace cosched::config {
namespace {

constexpr std::string_view kRemakeHint = "`cosched calibrate --output FILE` measures this machine and writes one";

// Reads the typed values and remembers where each key was, so the rules (node_model_rules.hpp) name its line.
class NodeReader {
 public:
  explicit NodeReader(std::string source) : source_(std::move(source)) {}

  [[nodiscard]] std::string locate(std::string_view key) const {
    const auto found = locations_.find(std::string(key));
    return found == locations_.end() ? source_ : found->second;
  }

  // The value of a key that must be there; InputError at the table naming the key when it is missing.
  template <typename T>
  T required(const TomlTable& table, std::string_view key, std::optional<T> value, std::string_view what) {
    if (!value) {
      throw InputError(table.where(), fmt::format("missing key '{}' ({})", table.name_of(key), what));
    }
    locations_[table.name_of(key)] = table.where(key);
    return std::move(*value);
  }

  NodeProvenance provenance(const TomlTable& root) {
    const auto table = root.table("provenance");
    if (!table) throw InputError(source_, "missing table [provenance] (host, date, method, ... of the numbers)");
    const TomlTable& p = *table;
    p.allow_only({"host", "date", "method", "cosched_version", "tier_backend", "emulated", "references"});
    NodeProvenance provenance;
    provenance.source = source_;
    provenance.host = required(p, "host", p.string("host"), "the machine it was measured on");
    provenance.date = required(p, "date", p.string("date"), "ISO-8601 UTC, e.g. 2026-11-22T13:50:00Z");
    provenance.method = required(p, "method", p.string("method"), "how the numbers were obtained");
    provenance.cosched_version = required(p, "cosched_version", p.string("cosched_version"), "the version");
    provenance.tier_backend = required(p, "tier_backend", p.string("tier_backend"), "none, memkind, numa, emulated");
    provenance.emulated = required(p, "emulated", p.boolean("emulated"), "true when the fast tier is emulated");
    if (p.contains("references")) {
      provenance.references = required(p, "references", p.strings("references"), "where the numbers come from");
    }
    return provenance;
  }

  BandwidthCurve curve(const TomlTable& table) {
    BandwidthCurve curve;
    curve.cores = required(table, "cores", table.counts("cores", kMaxCores), "core counts, ascending");
    curve.gbs = required(table, "gbs", table.numbers("gbs", positive_up_to(kMaxPoolGbs)), "GB/s per core count");
    return curve;
  }

  MemoryPool pool(const TomlTable& table) {
    table.allow_only({"name", "tiers", "cores", "gbs", "kernels"});
    MemoryPool pool;
    pool.name = required(table, "name", table.string("name"), "\"dram\", \"mcdram\", \"ddr\", \"hbm\", ...");
    pool.tiers = required(table, "tiers", table.strings("tiers"), "[\"fast\"], [\"slow\"] or [\"fast\", \"slow\"]");
    pool.bandwidth = curve(table);
    if (const auto kernels = table.table("kernels")) {
      for (const std::string& kernel : kernels->keys()) {
        const TomlTable entry = *kernels->table(kernel);
        locations_[kernels->name_of(kernel)] = kernels->where(kernel);
        entry.allow_only({"cores", "gbs"});
        pool.kernels[kernel] = curve(entry);
      }
    }
    return pool;
  }

  NodeModel model(const TomlTable& root) {
    check_format_version(root);
    root.allow_only({"format_version", "provenance", "pools"});
    NodeModel model;
    model.provenance = provenance(root);
    const auto pools = root.tables("pools");
    if (!pools) throw InputError(source_, "missing [[pools]]: the memory pools of the node and their bandwidth");
    locations_["pools"] = root.where("pools");
    for (const TomlTable& entry : *pools) model.pools.push_back(pool(entry));
    node_rules::check_model(model, [this](std::string_view key) { return locate(key); });
    return model;
  }

 private:
  // First of all: a file of another format may differ in any key, and the version says so best.
  void check_format_version(const TomlTable& root) const {
    if (!root.contains("format_version")) {
      throw InputError(source_, fmt::format("missing key 'format_version' (= {}); {}", kNodeFormatVersion,
                                            kRemakeHint));
    }
    std::optional<std::int64_t> version;
    try {
      version = root.integer("format_version", 0, std::numeric_limits<int>::max());
    } catch (const InputError&) {
      version.reset();  // a word or a negative number: not a version this cosched reads either
    }
    if (version != kNodeFormatVersion) {
      throw InputError(root.where("format_version"),
                       fmt::format("key 'format_version' must be {}: this cosched reads node files of format {} "
                                   "only; {}",
                                   kNodeFormatVersion, kNodeFormatVersion, kRemakeHint));
    }
  }

  std::string source_;
  std::map<std::string, std::string> locations_;
};

std::string quoted(const std::string& text) { return toml_basic_string(text); }

// A key as TOML writes it: bare when it can be, quoted otherwise (identifiers may hold '.' and '+').
std::string toml_key(const std::string& key) {
  const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  return bare ? key : quoted(key);
}

std::string strings_array(const std::vector<std::string>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i == 0 ? "" : ", ") + quoted(values[i]);
  return text + "]";
}

// cores = [...] and gbs = [...]; fmt's "{}" writes a double in its shortest form that reads back exactly.
std::string curve_lines(const BandwidthCurve& curve) {
  return fmt::format("cores = [{}]\ngbs = [{}]\n", fmt::join(curve.cores, ", "), fmt::join(curve.gbs, ", "));
}

}  // namespace

NodeModel parse_node_toml(std::string_view text, const std::string& source) {
  return NodeReader(source).model(TomlTable::parse(text, source));
}

NodeModel load_node_model(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    throw InputError(path.string(), fmt::format("no node file here; `cosched calibrate --output {}` measures this "
                                                "machine and writes one",
                                                path.string()));
  }
  return NodeReader(path.string()).model(TomlTable::parse_file(path, "node file"));
}

std::string to_toml(const NodeModel& model) {
  check_node_model(model);
  const NodeProvenance& p = model.provenance;
  std::string text = fmt::format("format_version = {}\n\n[provenance]\n", kNodeFormatVersion);
  text += fmt::format("host = {}\ndate = {}\nmethod = {}\ncosched_version = {}\ntier_backend = {}\nemulated = {}\n",
                      quoted(p.host), quoted(p.date), quoted(p.method), quoted(p.cosched_version),
                      quoted(p.tier_backend), p.emulated);
  if (!p.references.empty()) {
    text += "references = [\n";
    for (const std::string& reference : p.references) text += "  " + quoted(reference) + ",\n";
    text += "]\n";
  }
  for (const MemoryPool& pool : model.pools) {
    text += fmt::format("\n[[pools]]\nname = {}\ntiers = {}\n", quoted(pool.name), strings_array(pool.tiers));
    text += curve_lines(pool.bandwidth);
    for (const auto& [kernel, curve] : pool.kernels) {
      text += fmt::format("\n[pools.kernels.{}]\n", toml_key(kernel)) + curve_lines(curve);
    }
  }
  return text;
}

}  // namespace cosched::config
