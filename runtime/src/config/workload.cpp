#include "cosched/config/workload.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <array>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/text_file.hpp"
#include "workload_rules.hpp"

namespace cosched::config {

namespace {

constexpr std::array<std::string_view, 4> kPlaceholders{"{threads}", "{cpuset}", "{cores}", "{fast_bytes}"};

bool is_word_start(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_word_char(char c) noexcept { return is_word_start(c) || (c >= '0' && c <= '9'); }

// The first {word} of `arg` that is not a known placeholder (nor {work} when `work`), or "".
std::string_view unknown_placeholder(std::string_view arg, bool work) {
  for (std::size_t open = arg.find('{'); open != std::string_view::npos; open = arg.find('{', open + 1)) {
    std::size_t end = open + 1;
    if (end >= arg.size() || !is_word_start(arg[end])) continue;
    while (end < arg.size() && is_word_char(arg[end])) ++end;
    if (end >= arg.size() || arg[end] != '}') continue;
    const std::string_view word = arg.substr(open, end - open + 1);
    if (work && word == kWorkPlaceholder) continue;
    if (std::find(kPlaceholders.begin(), kPlaceholders.end(), word) == kPlaceholders.end()) return word;
  }
  return {};
}

}  // namespace

namespace rules {

void check_kernel_name(const std::string& kernel, const std::vector<std::string>& known, const std::string& where) {
  check_identifier(kernel, where);
  if (!known.empty() && std::find(known.begin(), known.end(), kernel) == known.end()) {
    throw InputError(where, fmt::format("unknown kernel '{}' (known: {})", kernel, fmt::join(known, ", ")));
  }
}

}  // namespace rules

const WorkloadTask& Workload::find(const std::string& id) const {
  for (const auto& task : tasks) {
    if (task.id == id) return task;
  }
  throw InputError(source, fmt::format("the schedule names task \"{}\", which the workload does not have", id));
}

std::string stream_task_id(std::string_view kernel, std::uint64_t footprint_bytes, unsigned k) {
  return fmt::format("{}-{}MiB-{}", kernel, static_cast<double>(footprint_bytes) / (1024.0 * 1024.0), k);
}

void add_stream_tasks(Workload& workload, const StreamTaskGroup& group, const std::string& where) {
  rules::check_kernel_name(group.kernel, {}, where);
  if (group.footprint_bytes == 0 || group.footprint_bytes > kMaxFootprintBytes) {
    throw InputError(where, fmt::format("footprint_bytes must be from 1 to {}, got {}", kMaxFootprintBytes,
                                        group.footprint_bytes));
  }
  (void)checked_count(group.count, 1, kMaxTaskCount, where, "count");
  (void)checked_count(group.passes, 1, kMaxPasses, where, "passes");
  if (workload.tasks.size() + group.count > kMaxWorkloadTasks) {
    throw InputError(where, fmt::format("the workload would have more than {} tasks", kMaxWorkloadTasks));
  }
  const auto same_group = [&](const WorkloadTask& task) {
    return task.kernel == group.kernel && task.footprint_bytes == group.footprint_bytes;
  };
  const auto first = static_cast<unsigned>(std::count_if(workload.tasks.begin(), workload.tasks.end(), same_group));
  for (unsigned i = 0; i < group.count; ++i) {
    WorkloadTask task;
    task.id = stream_task_id(group.kernel, group.footprint_bytes, first + i);
    check_identifier(task.id, where);
    task.kernel = group.kernel;
    task.footprint_bytes = group.footprint_bytes;
    task.passes = group.passes;
    workload.tasks.push_back(std::move(task));
  }
}

std::span<const std::string_view> command_placeholders() noexcept { return kPlaceholders; }

std::vector<std::string> environment_entries(const std::vector<std::pair<std::string, std::string>>& variables,
                                             const std::string& where) {
  std::vector<std::string> entries;
  for (const auto& [name, value] : variables) {
    const std::string entry = name + "=" + value;
    const bool valid_name = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) != 0 || name[0] == '_') &&
                            std::all_of(name.begin(), name.end(), [](char c) {
                              return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
                            });
    if (!valid_name) {
      // The name is checked on its own, before the entry is joined: "A=B": "x" would otherwise read as A="B=x".
      const std::size_t equals = name.find('=');
      throw InputError(where, fmt::format("environment entry '{}' is not NAME=VALUE with NAME a variable name "
                                          "([A-Za-z_][A-Za-z0-9_]*){}",
                                          entry,
                                          equals == std::string::npos
                                              ? ""
                                              : fmt::format(": the name \"{}\" holds '=', so the child would see "
                                                            "{}=\"{}\"",
                                                            name, name.substr(0, equals),
                                                            entry.substr(equals + 1))));
    }
    if (entry.find('\0') != std::string::npos) {
      throw InputError(where, fmt::format("environment variable {} contains a NUL byte", name));
    }
    entries.push_back(entry);
  }
  return entries;
}

void check_command(const std::vector<std::string>& argv, const std::string& where, bool work) {
  if (argv.empty() || argv.front().empty()) {
    throw InputError(where, "\"command\" must be a non-empty argv whose first entry names the program");
  }
  if (argv.size() > kMaxCommandArguments) {
    throw InputError(where, fmt::format("\"command\" has {} arguments, at most {}", argv.size(), kMaxCommandArguments));
  }
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i].find('\0') != std::string::npos) {
      throw InputError(where, fmt::format("command[{}] contains a NUL byte", i));
    }
    if (const auto word = unknown_placeholder(argv[i], work); !word.empty()) {
      throw InputError(where, fmt::format("command[{}] uses the unknown placeholder {} (known: {}{})", i, word,
                                          fmt::join(kPlaceholders, ", "),
                                          word == kWorkPlaceholder ? "; {work} needs the task's \"work\"" : ""));
    }
  }
}

std::vector<std::string> command_at_work(const std::vector<std::string>& argv, double amount) {
  const std::string value = fmt::format("{}", amount);
  std::vector<std::string> result;
  result.reserve(argv.size());
  for (std::string arg : argv) {
    for (std::size_t at = arg.find(kWorkPlaceholder); at != std::string::npos;
         at = arg.find(kWorkPlaceholder, at + value.size())) {
      arg.replace(at, kWorkPlaceholder.size(), value);
    }
    result.push_back(std::move(arg));
  }
  return result;
}

Workload load_workload(const std::filesystem::path& path, const WorkloadReadOptions& options) {
  const std::string text = read_text_file(path, "workload");
  if (path.extension() == ".toml") return parse_workload_toml(text, path.string(), options);
  return parse_workload_json(text, path.string(), options);
}

}  // namespace cosched::config
