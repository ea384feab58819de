#pragma once
// What each task of a batch runs, read from any file a user gives: a workload TOML, a workload JSON, or an Instance
// JSON (what `cosched instance` writes; told apart by its "resources"). config's reader is told which kernels a
// STREAM task may name (stream_bench's kernel table; cosched::config itself does not link the kernels) and, when
// there is one, the platform that sizes footprints given as a percentage of the fast tier. An Instance JSON is read
// by the ONE Instance parser (sched), and what each task runs by the workload schema's task reader (config) from
// the task's attributes: this composes the two so that config does not depend on sched.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::exec {

// The workload an Instance carries: each task's attributes (as config::to_json wrote them) plus its id. Other
// attributes are the Instance's own (the Instance format keeps any), so they are left alone. Throws InputError
// naming the task when an Instance does not say what a task runs.
[[nodiscard]] config::Workload workload_of_instance(const sched::Instance& instance, const std::string& source,
                                                    const std::vector<std::string>& known_kernels);

// A workload file as read: what each task runs and, when the file is an Instance JSON, the instance itself (its
// bandwidth model and traffic are what the contention-aware prediction needs).
struct WorkloadFile {
  config::Workload workload;
  std::optional<sched::Instance> instance;
};

// A workload file: TOML, workload JSON, or an Instance JSON.
[[nodiscard]] WorkloadFile read_workload_file(const std::filesystem::path& path,
                                              const std::optional<config::PlatformConfig>& platform);
[[nodiscard]] config::Workload read_workload(const std::filesystem::path& path,
                                             const std::optional<config::PlatformConfig>& platform);

// The checks a batch passes before any work is done for it (issue 41), reading nothing but the batch and this
// machine: every command's program is a program (resolve_executable: InputError for a missing one or a folder; a
// program named through a {placeholder} is resolved when it runs), and no task's footprint is more than
// `memory_bytes`, this node's memory (ResourceError naming the task: it would otherwise fail in an allocation, or push
// the node into swap, after the batch's profiling).
void check_batch_before_work(const config::Workload& workload, std::optional<std::uint64_t> memory_bytes);

// The names of the kernels a STREAM task may run (stream_bench's kernel table).
[[nodiscard]] std::vector<std::string> stream_kernel_names();

}  // namespace cosched::exec
