// The workload TOML reader: kernel x footprint x count entries, expanded to tasks by the one id rule.
#include <fmt/format.h>

#include <span>

#include "cosched/common/checked.hpp"
#include "cosched/common/constants.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/config/toml_table.hpp"
#include "cosched/config/workload.hpp"
#include "workload_rules.hpp"

namespace cosched::config {
namespace {

std::uint64_t read_footprint(const TomlTable& entry, const WorkloadReadOptions& options) {
  const bool mib = entry.contains("footprint_mib");
  const bool percent = entry.contains("footprint_percent_of_fast");
  if (mib == percent) {
    throw InputError(entry.where(), fmt::format("give exactly one of '{}', '{}'", entry.name_of("footprint_mib"),
                                                entry.name_of("footprint_percent_of_fast")));
  }
  if (mib) {
    const double max_mib = static_cast<double>(kMaxFootprintBytes) / kBytesPerMiB;
    const double value = *entry.number("footprint_mib", positive_up_to(max_mib));
    const std::uint64_t bytes = footprint_bytes_from_mib(value);
    if (bytes == 0) throw InputError(entry.where("footprint_mib"), fmt::format("key '{}' rounds to 0 bytes",
                                                                              entry.name_of("footprint_mib")));
    return bytes;
  }
  const std::string key = entry.name_of("footprint_percent_of_fast");
  if (!options.platform || options.platform->fast_capacity_bytes == 0) {
    throw InputError(entry.where("footprint_percent_of_fast"),
                     fmt::format("key '{}' needs a platform with a fast tier (--platform) to turn into bytes", key));
  }
  const double value = *entry.number("footprint_percent_of_fast", positive_up_to(kMaxFootprintPercentOfFast));
  const std::uint64_t bytes = footprint_from_percent(value, *options.platform);
  if (bytes == 0) {
    throw InputError(entry.where("footprint_percent_of_fast"),
                     fmt::format("key '{}' = {} rounds down to 0 MiB of platform '{}'", key, value,
                                 options.platform->name));
  }
  return bytes;
}

// The online fields of an entry's tasks: copy k arrives at release_s + k * release_every_s, all of `user`.
void set_arrivals(const TomlTable& entry, std::span<WorkloadTask> copies) {
  const double release = entry.number("release_s", non_negative_up_to(kMaxSeconds)).value_or(0.0);
  const double every = entry.number("release_every_s", non_negative_up_to(kMaxSeconds)).value_or(0.0);
  const auto user = entry.string("user");
  if (user) check_identifier(*user, fmt::format("{}: key '{}'", entry.where("user"), entry.name_of("user")));
  for (std::size_t k = 0; k < copies.size(); ++k) {
    copies[k].release_s = checked_number(release + static_cast<double>(k) * every, non_negative_up_to(kMaxSeconds),
                                         entry.where("release_every_s"), fmt::format("the release of copy {}", k));
    copies[k].user = user.value_or("");
  }
}

Workload read_workload(const TomlTable& root, const WorkloadReadOptions& options) {
  root.allow_only({"name", "description", "tasks"});
  Workload workload;
  workload.source = root.source();
  workload.name = root.string("name").value_or(std::filesystem::path(root.source()).stem().string());
  if (root.contains("name")) check_identifier(workload.name, root.where("name"));
  workload.description = root.string("description").value_or("");
  const auto entries = root.tables("tasks");
  if (!entries || entries->empty()) {
    throw InputError(root.source(), "no [[tasks]] entries (each: kernel, footprint_mib, count)");
  }
  for (const auto& entry : *entries) {
    entry.allow_only({"kernel", "footprint_mib", "footprint_percent_of_fast", "count", "passes", "release_s",
                      "release_every_s", "user"});
    StreamTaskGroup group;
    const auto kernel = entry.string("kernel");
    if (!kernel) throw InputError(entry.where(), fmt::format("missing key '{}'", entry.name_of("kernel")));
    rules::check_kernel_name(*kernel, options.known_kernels, entry.where("kernel"));
    group.kernel = *kernel;
    group.footprint_bytes = read_footprint(entry, options);
    group.count = static_cast<unsigned>(entry.integer("count", 1, kMaxTaskCount).value_or(1));
    group.passes = static_cast<unsigned>(entry.integer("passes", 1, kMaxPasses).value_or(1));
    const std::size_t first = workload.tasks.size();
    add_stream_tasks(workload, group, entry.where());
    set_arrivals(entry, std::span(workload.tasks).subspan(first));
  }
  return workload;
}

}  // namespace

Workload parse_workload_toml(std::string_view text, const std::string& source, const WorkloadReadOptions& options) {
  return read_workload(TomlTable::parse(text, source), options);
}

}  // namespace cosched::config
