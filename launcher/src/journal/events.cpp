// The journal schema's one writer and one reader (journal/events.hpp).
#include "cosched/launcher/journal/events.hpp"

#include <fmt/format.h>

#include <climits>
#include <limits>

#include "cosched/common/error.hpp"
#include "cosched/common/json_fields.hpp"

namespace cosched::launcher {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxCount = std::int64_t{1} << 53;  // exact in a double, far beyond any batch
constexpr std::int64_t kMaxInt = INT_MAX;

// ---- writer -----------------------------------------------------------------------------------------------

json stamp_json(const InputStamp& stamp) { return {{"digest", stamp.digest}, {"summary", stamp.summary}}; }

json write(const BatchStart& e) {
  json plan = json::array();
  for (const auto& task : e.plan) {
    json entry = {{"task", task.task},
                  {"alloc", task.alloc},
                  {"planned_start", task.planned_start},
                  {"predicted_duration", task.predicted_duration},
                  {"predicted_start", task.predicted_start}};
    if (task.pack) entry["pack"] = *task.pack;
    plan.push_back(std::move(entry));
  }
  json resources = json::array();
  for (const auto& resource : e.resources) {
    resources.push_back({{"name", resource.name}, {"capacity", resource.capacity}});
  }
  json out = {{"time_utc", e.time_utc},         {"host", e.host},
              {"launcher_pid", optional_json(e.launcher_pid)},
              {"clock", e.clock},               {"policy", e.policy},
              {"algorithm", e.algorithm},       {"schedule", e.schedule},
              {"workload", e.workload},         {"label", e.label},
              {"tier_backend", e.tier_backend}, {"emulated", e.emulated},
              {"chunk_bytes", e.chunk_bytes},   {"resources", resources},
              {"lower_bound", e.lower_bound},   {"planned_makespan", e.planned_makespan},
              {"predicted_makespan", e.predicted_makespan},
              {"predicted_makespan_contention", optional_json(e.predicted_makespan_contention)},
              {"fail_fast", e.fail_fast},       {"timeout_s", optional_json(e.timeout_s)},
              {"resumed", e.resumed},           {"already_completed", e.already_completed},
              {"journal_repaired_bytes", e.journal_repaired_bytes},
              {"plan", plan}};
  if (e.emulation_ratio) out["emulation_ratio"] = *e.emulation_ratio;
  if (e.inputs) out["inputs"] = to_json(*e.inputs);
  out["slurm"] = e.slurm ? to_json(*e.slurm) : json(nullptr);
  if (e.predicted_interval) {
    out["predicted_interval"] = {{"low_s", e.predicted_interval->low_s},
                                 {"high_s", e.predicted_interval->high_s},
                                 {"coverage", e.predicted_interval->coverage}};
  }
  if (e.memory_warm_up) {
    out["memory_warm_up"] = {{"bytes", e.memory_warm_up->bytes},
                             {"seconds", e.memory_warm_up->seconds},
                             {"reason", e.memory_warm_up->reason}};
  }
  return out;
}

json write(const TaskStart& e) {
  json out = {{"task", e.task},
              {"time_utc", e.time_utc},
              {"t", e.t},
              {"planned_start", e.planned_start},
              {"predicted_start", e.predicted_start},
              {"alloc", e.alloc},
              {"cores", e.cores},
              {"pus", e.pus},
              {"fast_chunks", e.fast_chunks},
              {"fast_bytes", e.fast_bytes},
              {"placement", e.placement},
              {"pid", e.pid},
              {"launch_overhead_s", e.launch_overhead_s},
              {"argv", e.argv}};
  if (e.predicted_contention_start) out["predicted_contention_start"] = *e.predicted_contention_start;
  if (e.predicted_contention_end) out["predicted_contention_end"] = *e.predicted_contention_end;
  if (e.pack) out["pack"] = *e.pack;
  if (e.launch_error) out["launch_error"] = *e.launch_error;
  return out;
}

json write(const TaskEnd& e) {
  json out = {{"task", e.task},
              {"time_utc", e.time_utc},
              {"status", to_string(e.status)},
              {"t", e.t},
              {"actual_start", e.actual_start},
              {"actual_end", e.actual_end},
              {"duration_s", e.duration_s},
              {"planned_start", e.planned_start},
              {"planned_end", e.planned_end},
              {"predicted_duration", e.predicted_duration},
              {"exit_code", optional_json(e.exit_code)},
              {"signal", optional_json(e.signal)}};
  if (e.message) out["message"] = *e.message;
  return out;
}

json write(const OvercommitRefused& e) { return {{"task", e.task}, {"why", e.why}, {"time_utc", e.time_utc}}; }

json write(const BatchEnd& e) {
  return {{"time_utc", e.time_utc},
          {"status", to_string(e.status)},
          {"observed_makespan", e.observed_makespan},
          {"predicted_makespan", e.predicted_makespan},
          {"lower_bound", e.lower_bound},
          {"ratio", e.ratio},
          {"tasks_completed", e.tasks_completed},
          {"tasks_failed", e.tasks_failed},
          {"tasks_killed", e.tasks_killed},
          {"tasks_not_started", e.tasks_not_started},
          {"overcommit_refusals", e.overcommit_refusals}};
}

json write(const Replanned& e) {
  json tasks = json::array();
  for (const ReplannedEntry& task : e.tasks) {
    tasks.push_back({{"task", task.task},
                     {"alloc", task.alloc},
                     {"predicted_duration", optional_json(task.predicted_duration)},
                     {"guessed", task.guessed}});
  }
  return {{"time_utc", e.time_utc},
          {"t", e.t},
          {"after", e.after},
          {"reason", e.reason},
          {"tasks", tasks},
          {"predicted_rest_s", optional_json(e.predicted_rest_s)}};
}

// ---- reader -----------------------------------------------------------------------------------------------

const Range kAnyNonNegative = non_negative_up_to(std::numeric_limits<double>::max());

std::vector<int> ints(const JsonFields& f, const char* key) {
  std::vector<int> values;
  for (const std::int64_t value : f.integers(key, 0, kMaxInt)) values.push_back(static_cast<int>(value));
  return values;
}

std::vector<unsigned> indices(const JsonFields& f, const char* key) {
  std::vector<unsigned> values;
  for (const std::int64_t value : f.integers(key, 0, kMaxInt)) values.push_back(static_cast<unsigned>(value));
  return values;
}

std::size_t count(const JsonFields& f, const char* key) {
  return static_cast<std::size_t>(f.integer(key, 0, kMaxCount, 0));
}

std::optional<int> optional_int(const JsonFields& f, const char* key, std::int64_t min, std::int64_t max) {
  const auto value = f.optional_integer(key, min, max);
  return value ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
}

InputStamp read_stamp(const JsonFields& inputs, const char* key) {
  const auto stamp = inputs.object(key);
  if (!stamp) throw InputError(inputs.where(), fmt::format("missing \"{}\"", key));
  return {stamp->required_text("digest"), stamp->text("summary")};
}

BatchStart read_batch_start(const JsonFields& f) {
  BatchStart e;
  e.time_utc = f.text("time_utc");
  e.host = f.text("host");
  e.launcher_pid = optional_int(f, "launcher_pid", 1, kMaxInt);
  e.clock = f.text("clock");
  e.policy = f.text("policy");
  e.algorithm = f.text("algorithm");
  e.schedule = f.text("schedule");
  e.workload = f.text("workload");
  e.label = f.text("label");
  e.tier_backend = f.text("tier_backend");
  e.emulated = f.flag("emulated");
  e.emulation_ratio = f.optional_number("emulation_ratio", Range{1.0, std::numeric_limits<double>::max()});
  e.chunk_bytes = f.number("chunk_bytes", kAnyNonNegative, 0.0);
  for (const JsonFields& resource : f.objects("resources")) {
    e.resources.push_back({resource.required_text("name"),
                           static_cast<int>(resource.integer("capacity", 0, kMaxInt, 0))});
  }
  e.lower_bound = f.seconds("lower_bound");
  e.planned_makespan = f.seconds("planned_makespan");
  e.predicted_makespan = f.seconds("predicted_makespan");
  e.predicted_makespan_contention = f.optional_seconds("predicted_makespan_contention");
  e.fail_fast = f.flag("fail_fast");
  e.timeout_s = f.optional_seconds("timeout_s");
  e.resumed = f.flag("resumed");
  e.already_completed = f.texts("already_completed");
  e.journal_repaired_bytes = count(f, "journal_repaired_bytes");
  for (const JsonFields& task : f.objects("plan")) {
    e.plan.push_back({task.required_text("task"), ints(task, "alloc"), task.seconds("planned_start"),
                      task.seconds("predicted_duration"), task.seconds("predicted_start"),
                      optional_int(task, "pack", 0, kMaxInt)});
  }
  if (const auto inputs = f.object("inputs")) {
    e.inputs = BatchInputs{read_stamp(*inputs, "schedule"), read_stamp(*inputs, "workload"),
                           read_stamp(*inputs, "platform")};
  }
  if (const auto slurm = f.object("slurm")) {
    e.slurm = SlurmStep{slurm->text("node"), slurm->text("job_id"), slurm->text("step_id")};
  }
  if (const auto interval = f.object("predicted_interval")) {
    e.predicted_interval = PredictedInterval{interval->seconds("low_s"), interval->seconds("high_s"),
                                             interval->number("coverage", Range{0.0, 1.0}, 0.8)};
    if (e.predicted_interval->high_s < e.predicted_interval->low_s) {
      throw InputError(interval->where(), "predicted_interval: high_s is below low_s");
    }
  }
  if (const auto warm_up = f.object("memory_warm_up")) {
    e.memory_warm_up = MemoryWarmUp{count(*warm_up, "bytes"), warm_up->seconds("seconds"), warm_up->text("reason")};
  }
  return e;
}

TaskStart read_task_start(const JsonFields& f) {
  TaskStart e;
  e.task = f.required_text("task");
  e.time_utc = f.text("time_utc");
  e.t = f.required_seconds("t");
  e.planned_start = f.seconds("planned_start");
  e.predicted_start = f.seconds("predicted_start");
  e.predicted_contention_start = f.optional_seconds("predicted_contention_start");
  e.predicted_contention_end = f.optional_seconds("predicted_contention_end");
  e.alloc = ints(f, "alloc");
  e.cores = indices(f, "cores");
  e.pus = indices(f, "pus");
  e.fast_chunks = count(f, "fast_chunks");
  e.fast_bytes = count(f, "fast_bytes");
  e.placement = f.text("placement");
  e.pid = static_cast<int>(f.integer("pid", -1, kMaxInt, -1));
  e.launch_overhead_s = f.seconds("launch_overhead_s");
  e.argv = f.texts("argv");
  e.pack = optional_int(f, "pack", 0, kMaxInt);
  e.launch_error = f.optional_text("launch_error");
  return e;
}

TaskEnd read_task_end(const JsonFields& f) {
  TaskEnd e;
  e.task = f.required_text("task");
  e.time_utc = f.text("time_utc");
  const std::string status = f.required_text("status");
  const auto parsed = sim::parse_task_status(status);
  if (!parsed) {
    throw InputError(f.where(), fmt::format("unknown task status \"{}\" (known: ok, failed, timeout, killed)", status));
  }
  e.status = *parsed;
  e.t = f.required_seconds("t");
  e.actual_start = f.seconds("actual_start");
  e.actual_end = f.seconds("actual_end");
  e.duration_s = f.seconds("duration_s");
  e.planned_start = f.seconds("planned_start");
  e.planned_end = f.seconds("planned_end");
  e.predicted_duration = f.seconds("predicted_duration");
  e.exit_code = optional_int(f, "exit_code", 0, 255);
  e.signal = optional_int(f, "signal", 1, 255);
  e.message = f.optional_text("message");
  return e;
}

OvercommitRefused read_overcommit(const JsonFields& f) {
  return {f.required_text("task"), f.text("why"), f.text("time_utc")};
}

BatchEnd read_batch_end(const JsonFields& f) {
  BatchEnd e;
  e.time_utc = f.text("time_utc");
  const std::string status = f.required_text("status");
  const auto parsed = parse_batch_status(status);
  if (!parsed) {
    throw InputError(f.where(),
                     fmt::format("unknown batch status \"{}\" (known: ok, failed, stopped, interrupted)", status));
  }
  e.status = *parsed;
  e.observed_makespan = f.seconds("observed_makespan");
  e.predicted_makespan = f.seconds("predicted_makespan");
  e.lower_bound = f.seconds("lower_bound");
  e.ratio = f.number("ratio", kAnyNonNegative, 0.0);
  e.tasks_completed = count(f, "tasks_completed");
  e.tasks_failed = count(f, "tasks_failed");
  e.tasks_killed = count(f, "tasks_killed");
  e.tasks_not_started = count(f, "tasks_not_started");
  e.overcommit_refusals = count(f, "overcommit_refusals");
  return e;
}

Replanned read_replanned(const JsonFields& f) {
  Replanned e;
  e.time_utc = f.text("time_utc");
  e.t = f.required_seconds("t");
  e.after = f.required_text("after");
  e.reason = f.text("reason");
  for (const JsonFields& task : f.objects("tasks")) {
    e.tasks.push_back({task.required_text("task"), ints(task, "alloc"), task.optional_seconds("predicted_duration"),
                       task.flag("guessed")});
  }
  e.predicted_rest_s = f.optional_seconds("predicted_rest_s");
  return e;
}

}  // namespace

std::string_view to_string(BatchStatus status) noexcept {
  switch (status) {
    case BatchStatus::ok: return "ok";
    case BatchStatus::failed: return "failed";
    case BatchStatus::stopped: return "stopped";
    case BatchStatus::interrupted: return "interrupted";
  }
  return "failed";
}

std::optional<BatchStatus> parse_batch_status(std::string_view text) noexcept {
  for (BatchStatus status : {BatchStatus::ok, BatchStatus::failed, BatchStatus::stopped, BatchStatus::interrupted}) {
    if (to_string(status) == text) return status;
  }
  return std::nullopt;
}

namespace {

// The event kinds, in the order of JournalEvent's alternatives: the one place their names are spelled.
struct EventKind {
  std::string_view name;
  JournalEvent (*read)(const JsonFields& fields);
};

template <typename Event, Event (*Read)(const JsonFields&)>
JournalEvent read_as(const JsonFields& fields) {
  return Read(fields);
}

constexpr EventKind kEventKinds[] = {
    {"batch_start", read_as<BatchStart, read_batch_start>},
    {"start", read_as<TaskStart, read_task_start>},
    {"end", read_as<TaskEnd, read_task_end>},
    {"overcommit_refused", read_as<OvercommitRefused, read_overcommit>},
    {"batch_end", read_as<BatchEnd, read_batch_end>},
    {"replan", read_as<Replanned, read_replanned>},
};
static_assert(std::size(kEventKinds) == std::variant_size_v<JournalEvent>);

}  // namespace

std::string_view event_name(const JournalEvent& event) noexcept { return kEventKinds[event.index()].name; }

json to_json(const SlurmStep& step) {
  return {{"node", step.node}, {"job_id", step.job_id}, {"step_id", step.step_id}};
}

json to_json(const BatchInputs& inputs) {
  return {{"schedule", stamp_json(inputs.schedule)},
          {"workload", stamp_json(inputs.workload)},
          {"platform", stamp_json(inputs.platform)}};
}

json to_json(const JournalEvent& event) {
  json out = std::visit([](const auto& e) { return write(e); }, event);
  out["event"] = event_name(event);
  return out;
}

JournalEvent event_from_json(const json& object, const std::string& where) {
  const JsonFields fields(object, where);
  const std::string name = fields.required_text("event");
  std::string known;
  for (const EventKind& kind : kEventKinds) {
    if (kind.name == name) return kind.read(fields);
    known += (known.empty() ? "" : ", ") + std::string(kind.name);
  }
  throw InputError(where, fmt::format("unknown event \"{}\" (known: {})", name, known));
}

}  // namespace cosched::launcher
