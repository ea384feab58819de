// The profile cache (profile_cache.hpp): entries, their one parser and writer, and the folder they live in.
#include "cosched/profiler/profile_cache.hpp"

#include <fmt/format.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <set>

#include "cosched/common/digest.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/json_fields.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/common/version.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/profiler/profile_csv.hpp"

namespace cosched::profiler {

using nlohmann::json;

namespace {

// The kernel name a command's rows carry inside an entry (renamed to the run's profile name when used).
constexpr std::string_view kEntryCommandName = "cached";

std::string short_digest(const json& value) { return digest_text(value.dump()).substr(8, 8); }

}  // namespace

json node_json(const NodeFingerprint& node) {
  return {{"host", node.host},
          {"cpu_model", node.cpu_model},
          {"numa_nodes", node.numa_nodes},
          {"tier_backend", node.tier_backend},
          {"emulation_ratio", node.emulation_ratio}};
}

NodeFingerprint node_from(const JsonFields& fields) {
  NodeFingerprint node;
  node.host = fields.required_text("host");
  node.cpu_model = fields.text("cpu_model");
  node.numa_nodes = static_cast<unsigned>(fields.integer("numa_nodes", 0, 1 << 20, 0));
  node.tier_backend = fields.required_text("tier_backend");
  node.emulation_ratio = fields.number("emulation_ratio", non_negative_up_to(1e6), 0.0);
  return node;
}

CachedTask task_from(const JsonFields& fields) {
  CachedTask task;
  task.kernel = fields.text("kernel");
  task.argv = fields.texts("command");
  task.environment = fields.texts("env");
  task.placement = fields.text("placement");
  task.footprint_bytes = static_cast<std::uint64_t>(
      fields.integer("footprint_bytes", 0, static_cast<std::int64_t>(config::kMaxFootprintBytes), 0));
  if (task.is_stream() == !task.argv.empty()) {
    throw InputError(fields.where(), "a task is a STREAM kernel (\"kernel\") or a command (\"command\"), one of them");
  }
  if (task.is_stream() && task.footprint_bytes == 0) {
    throw InputError(fields.where(), "a STREAM task's \"footprint_bytes\" is at least 1");
  }
  if (task.is_stream()) check_profile_kernel(task.kernel, fields.where());
  return task;
}

json program_json(const ProgramStamp& program) {
  return {{"size", program.size}, {"modified_ns", program.modified_ns}};
}

ProgramStamp program_from(const JsonFields& fields) {
  return {static_cast<std::uint64_t>(fields.integer("size", 0, std::numeric_limits<std::int64_t>::max(), 0)),
          fields.integer("modified_ns", std::numeric_limits<std::int64_t>::min(),
                         std::numeric_limits<std::int64_t>::max(), 0)};
}

namespace {

json row_json(const ProfileRow& row) {
  json entry = {{"cores", row.point.cores}, {"chunks", row.point.chunks}, {"time_s", row.time_s},
                {"time_min_s", row.time_min_s}, {"time_max_s", row.time_max_s}, {"reps", row.reps},
                {"gbs", row.gbs}};
  if (row.fixed_s) entry["fixed_s"] = *row.fixed_s;
  if (row.paired_s) entry["paired_s"] = *row.paired_s;
  if (row.paired_min_s) entry["paired_min_s"] = *row.paired_min_s;
  if (row.paired_max_s) entry["paired_max_s"] = *row.paired_max_s;
  return entry;
}

ProfileRow row_from(const JsonFields& fields, const CachedTask& task) {
  ProfileRow row;
  row.point.kernel = task.row_kernel(kEntryCommandName);
  row.point.footprint_bytes = task.footprint_bytes;
  row.point.cores = static_cast<unsigned>(fields.integer("cores", 1, config::kMaxCores, 0));  // 0: refused below
  row.point.chunks = static_cast<unsigned>(fields.integer("chunks", 0, config::kMaxFastChunks, 0));
  // The writer stores measured points only (a command with a failed point is not stored): a row marked otherwise is
  // damage, never a profile (issue 41: such a row was used as a hit).
  if (const auto status = fields.optional_text("status"); status && *status != kStatusOk) {
    throw InputError(fields.where(), fmt::format("a row marked \"{}\": a failed point is no profile",
                                                 bounded_echo(*status)));
  }
  row.time_s = fields.required_seconds("time_s");
  row.time_min_s = fields.required_seconds("time_min_s");
  row.time_max_s = fields.required_seconds("time_max_s");
  row.reps = static_cast<unsigned>(fields.integer("reps", 1, 1'000'000, 0));
  row.gbs = fields.number("gbs", non_negative_up_to(1e15), 0.0);
  row.fixed_s = fields.optional_seconds("fixed_s");
  row.paired_s = fields.optional_seconds("paired_s");
  row.paired_min_s = fields.optional_seconds("paired_min_s");
  row.paired_max_s = fields.optional_seconds("paired_max_s");
  check_profile_row(row, fields.where());
  return row;
}

}  // namespace

std::string NodeFingerprint::digest() const { return digest_text(node_json(*this).dump()); }

std::string NodeFingerprint::folder_name() const {
  return safe_identifier_from(host, "host") + "-" + digest().substr(8, 8);
}

NodeFingerprint this_node_fingerprint(const std::string& tier_backend, double emulation_ratio) {
  const platform::Topology topology = platform::Topology::this_system();
  NodeFingerprint node;
  node.host = host_name();
  node.cpu_model = topology.facts().cpu_model;
  node.numa_nodes = static_cast<unsigned>(topology.numa_nodes().size());
  node.tier_backend = tier_backend;
  node.emulation_ratio = platform::tier_backend_info(tier_backend).capabilities.emulated ? emulation_ratio : 0.0;
  return node;
}

json CachedTask::key() const {
  if (is_stream()) return {{"kernel", kernel}, {"footprint_bytes", footprint_bytes}};
  return {{"command", argv}, {"env", environment}, {"footprint_bytes", footprint_bytes}, {"placement", placement}};
}

std::string CachedTask::file_name() const {
  const std::string what =
      is_stream() ? fmt::format("{}-{}MiB", kernel, static_cast<double>(footprint_bytes) / (1024.0 * 1024.0))
                  : "cmd-" + std::filesystem::path(argv.front()).filename().string();
  return safe_identifier_from(what, "task").substr(0, 64) + "-" + short_digest(key()) + ".json";
}

std::string CachedTask::row_kernel(std::string_view command_name) const {
  return is_stream() ? kernel : command_kernel_name(command_name);
}

CachedTask cached_task_of(const config::WorkloadTask& task, const std::string& placement) {
  CachedTask cached;
  cached.footprint_bytes = task.footprint_bytes;
  if (task.is_stream()) {
    cached.kernel = task.kernel;
    return cached;
  }
  cached.argv = task.command;
  cached.argv.front() = exec::resolve_executable(task.command.front()).string();
  cached.environment = task.environment;
  std::sort(cached.environment.begin(), cached.environment.end());
  cached.placement = placement;
  return cached;
}

ProgramStamp program_stamp(const std::filesystem::path& program) {
  struct stat status {};
  if (::stat(program.c_str(), &status) != 0) throw PlatformError("stat", program.string(), errno);
  return {static_cast<std::uint64_t>(status.st_size),
          static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec};
}

unsigned CacheEntry::max_cores() const {
  unsigned cores = 0;
  for (const auto& row : rows) cores = std::max(cores, row.point.cores);
  return cores;
}

void check_file_format(const JsonFields& fields, const std::string& source, std::string_view format, int version) {
  if (fields.required_text("format") != format) {
    throw InputError(source, fmt::format("\"format\" must be \"{}\"", format));
  }
  const auto read = fields.integer("format_version", 0, 1 << 20, 0);
  if (read != version) {
    throw InputError(source,
                     fmt::format("\"format_version\" {} is not {}, the version this cosched reads", read, version));
  }
}

CacheEntry parse_cache_entry(std::string_view text, const std::string& source) {
  const json root = parse_json_text(text, source);
  const JsonFields fields(root, source);
  check_file_format(fields, source, kCacheEntryFormat, kCacheEntryFormatVersion);
  CacheEntry entry;
  entry.cosched_version = fields.required_text("cosched_version");
  entry.date = fields.required_text("date");
  const auto node = fields.object("node");
  if (!node) throw InputError(source, "missing \"node\"");
  entry.node = node_from(*node);
  entry.calibration = fields.required_text("calibration");
  const auto task = fields.object("task");
  if (!task) throw InputError(source, "missing \"task\"");
  entry.task = task_from(*task);
  if (const auto program = fields.object("program")) entry.program = program_from(*program);
  entry.measurer = fields.required_text("measurer");
  const std::vector<std::int64_t> passes = fields.integers("passes", 1, config::kMaxPasses);
  try {
    entry.passes = pass_counts(std::vector<unsigned>(passes.begin(), passes.end()), "\"passes\"");
  } catch (const UsageError& e) {
    throw InputError(source, e.what());
  }
  entry.reps = static_cast<unsigned>(fields.integer("reps", 1, 1'000'000, 0));
  entry.chunk_bytes = fields.number("chunk_bytes", positive_up_to(0x1p50), 0.0);
  if (!(entry.reps >= 1 && entry.chunk_bytes > 0)) throw InputError(source, "missing \"reps\" or \"chunk_bytes\"");
  if (const auto probe = fields.optional_integer("probe_cores", 0, config::kMaxCores)) {
    entry.probe_cores = static_cast<unsigned>(*probe);
  }
  std::set<std::pair<unsigned, unsigned>> points;
  for (const JsonFields& row_fields : fields.objects("rows")) {
    ProfileRow row = row_from(row_fields, entry.task);
    if (!points.emplace(row.point.cores, row.point.chunks).second) {
      throw InputError(row_fields.where(), fmt::format("the point cores={} chunks={} is there twice", row.point.cores,
                                                       row.point.chunks));
    }
    entry.rows.push_back(std::move(row));
  }
  if (entry.rows.empty()) throw InputError(source, "an entry holds at least one row");
  return entry;
}

std::string cache_entry_to_json(const CacheEntry& entry) {
  json rows = json::array();
  for (const auto& row : entry.rows) rows.push_back(row_json(row));
  json root = {{"format", kCacheEntryFormat},
               {"format_version", kCacheEntryFormatVersion},
               {"cosched_version", entry.cosched_version},
               {"date", entry.date},
               {"node", node_json(entry.node)},
               {"calibration", entry.calibration},
               {"task", entry.task.key()},
               {"measurer", entry.measurer},
               {"passes", entry.passes.separates_fixed_cost() ? json::array({entry.passes.low, entry.passes.high})
                                                              : json::array({entry.passes.low})},
               {"reps", entry.reps},
               {"chunk_bytes", entry.chunk_bytes},
               {"rows", std::move(rows)}};
  if (entry.program) root["program"] = program_json(*entry.program);
  if (entry.probe_cores) root["probe_cores"] = *entry.probe_cores;
  return root.dump(1) + "\n";
}

std::string_view to_string(CacheState state) noexcept {
  switch (state) {
    case CacheState::hit: return "hit";
    case CacheState::miss: return "miss";
    case CacheState::stale: return "stale";
    case CacheState::foreign: return "foreign";
    case CacheState::corrupt: return "corrupt";
  }
  return "unknown";
}

std::string node_model_digest(const config::NodeModel& model) { return digest_text(config::to_toml(model)); }

ProfileCache::ProfileCache(std::filesystem::path root, NodeFingerprint node)
    : root_(std::move(root)), node_(std::move(node)) {}

std::filesystem::path ProfileCache::default_root() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && *xdg == '/') return std::filesystem::path(xdg) / "cosched";
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') return std::filesystem::path(home) / ".cache" / "cosched";
  throw UsageError("neither XDG_CACHE_HOME nor HOME is set: name the profile cache with --cache DIR");
}

std::filesystem::path ProfileCache::node_folder() const { return root_ / node_.folder_name(); }

std::filesystem::path ProfileCache::node_model_path() const { return node_folder() / "node.toml"; }

std::filesystem::path ProfileCache::entry_path(const CachedTask& task) const {
  return node_folder() / "profiles" / task.file_name();
}

FileLock ProfileCache::lock(const std::function<void(const std::string& holder)>& waiting) const {
  std::error_code error;
  std::filesystem::create_directories(node_folder() / "profiles", error);
  if (error) throw PlatformError("mkdir", (node_folder() / "profiles").string(), error.value());
  return FileLock::acquire(node_folder() / "lock", waiting);
}

CacheLookup ProfileCache::lookup(const CachedTask& task, const CacheExpectation& expected) const {
  CacheLookup found;
  found.path = entry_path(task);
  std::error_code error;
  if (!std::filesystem::exists(found.path, error)) {
    // Another node's folder may hold it: said, and measured here all the same.
    for (const auto& other : std::filesystem::directory_iterator(root_, error)) {
      if (other.path().filename() == node_.folder_name()) continue;
      if (std::filesystem::exists(other.path() / "profiles" / task.file_name(), error)) {
        found.state = CacheState::foreign;
        found.reason = fmt::format("profiled on another node only ({}), not on this one ({})",
                                   other.path().filename().string(), node_.folder_name());
        return found;
      }
    }
    found.reason = "not profiled on this node yet";
    return found;
  }
  CacheEntry entry;
  try {
    entry = parse_cache_entry(read_text_file(found.path, "profile cache entry"), found.path.string());
  } catch (const InputError& e) {
    found.state = CacheState::corrupt;
    found.reason = fmt::format("unreadable entry, measured again: {}", e.what());
    return found;
  }
  if (entry.node != node_ || entry.task != task) {
    found.state = CacheState::corrupt;
    found.reason = entry.node != node_ ? fmt::format("the entry was measured on node {} ({}), not this one: measured "
                                                     "again", entry.node.host, entry.node.digest())
                                       : "the entry is of another task than its file name says: measured again";
    return found;
  }
  // Every core count the plan may give the task, at chunks 0, is there (the writer measures them all): a damaged
  // entry is found here, before any measuring, not when the batch's instance is built.
  for (unsigned cores = 1; cores <= std::min(expected.cores, entry.max_cores()); ++cores) {
    if (std::none_of(entry.rows.begin(), entry.rows.end(),
                     [&](const ProfileRow& row) { return row.point.cores == cores && row.point.chunks == 0; })) {
      found.state = CacheState::corrupt;
      found.reason = fmt::format("the entry lacks its point cores={} chunks=0: measured again", cores);
      return found;
    }
  }
  found.state = CacheState::stale;
  if (entry.calibration != expected.calibration) {
    found.reason = fmt::format("measured under another calibration of this node ({}, now {})", entry.calibration,
                               expected.calibration);
  } else if (entry.cosched_version != COSCHED_VERSION) {
    found.reason = fmt::format("measured by cosched {} (this is {})", entry.cosched_version, COSCHED_VERSION);
  } else if (entry.max_cores() < expected.cores) {
    found.reason = fmt::format("measured on up to {} cores, {} are planned now", entry.max_cores(), expected.cores);
  } else if (!entry.probe_cores && expected.cores >= 2) {
    found.reason = fmt::format("measured before {} had their memory-demand probe (two copies side by side)",
                               task.is_stream() ? "STREAM tasks" : "commands");
  } else if (!task.is_stream() && entry.program != program_stamp(task.argv.front())) {
    found.reason = fmt::format("{} changed since it was profiled", task.argv.front());
  } else {
    found.state = CacheState::hit;
    found.entry = std::move(entry);
  }
  return found;
}

void ProfileCache::store(const CacheEntry& entry) const {
  write_text_file(entry_path(entry.task), cache_entry_to_json(entry), Overwrite::replace, "profile cache entry");
}

}  // namespace cosched::profiler
