// What is known of a kind of task on this node (knowledge_store.hpp): its one parser and writer, and its place in
// the cache.
#include "cosched/profiler/knowledge_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/common/json_fields.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/profiler/run_history.hpp"

namespace cosched::profiler {

using nlohmann::json;

namespace {

bool same_point(const knowledge::Measurement& a, const knowledge::Measurement& b) {
  return a.cores == b.cores && a.fast_chunks == b.fast_chunks && knowledge::same_work(a.work, b.work);
}

json run_json(const KnownRun& known) {
  return {{"cores", known.run.cores},   {"chunks", known.run.fast_chunks}, {"work", known.run.work},
          {"seconds", known.run.seconds}, {"source", to_string(known.source)}, {"date", known.date}};
}

KnownRun run_from(const JsonFields& fields) {
  KnownRun known;
  known.run.cores = static_cast<int>(fields.integer("cores", 1, config::kMaxCores, 0));
  known.run.fast_chunks = static_cast<int>(fields.integer("chunks", 0, config::kMaxFastChunks, 0));
  known.run.work = fields.number("work", positive_up_to(config::kMaxWork), 0.0);
  known.run.seconds = fields.number("seconds", Range{kMinRunSeconds, kMaxSeconds}, 0.0);
  if (known.run.cores < 1 || known.run.work <= 0.0 || known.run.seconds < kMinRunSeconds) {
    throw InputError(fields.where(), fmt::format("a run needs \"cores\" >= 1, \"work\" > 0 and \"seconds\" >= {:g}",
                                                 kMinRunSeconds));
  }
  const std::string source = fields.required_text("source");
  if (source == "profiled") {
    known.source = RunSource::profiled;
  } else if (source == "observed") {
    known.source = RunSource::observed;
  } else {
    throw InputError(fields.where(), fmt::format("\"source\" is \"profiled\" or \"observed\", got \"{}\"", source));
  }
  known.date = fields.text("date");
  return known;
}

json probe_json(const KnownProbe& probe) {
  return {{"cores", probe.cores},       {"work", probe.work},
          {"alone_s", probe.alone_s},   {"paired_s", probe.paired_s},
          {"paired_min_s", probe.paired_min_s}, {"paired_max_s", probe.paired_max_s},
          {"date", probe.date}};
}

KnownProbe probe_from(const JsonFields& fields) {
  KnownProbe probe;
  probe.cores = static_cast<unsigned>(fields.integer("cores", 1, config::kMaxCores, 0));
  probe.work = fields.number("work", positive_up_to(config::kMaxWork), 0.0);
  probe.alone_s = fields.required_seconds("alone_s");
  probe.paired_s = fields.required_seconds("paired_s");
  probe.paired_min_s = fields.required_seconds("paired_min_s");
  probe.paired_max_s = fields.required_seconds("paired_max_s");
  if (probe.cores < 1 || probe.work <= 0.0 || probe.alone_s < kMinRunSeconds ||
      !(probe.paired_min_s <= probe.paired_s && probe.paired_s <= probe.paired_max_s)) {
    throw InputError(fields.where(), fmt::format("a probe needs cores >= 1, work > 0, alone_s >= {:g} and "
                                                 "paired_min_s <= paired_s <= paired_max_s",
                                                 kMinRunSeconds));
  }
  probe.date = fields.text("date");
  return probe;
}

}  // namespace

std::string_view to_string(RunSource source) noexcept {
  return source == RunSource::profiled ? "profiled" : "observed";
}

void KindKnowledge::add(const KnownRun& known) {
  runs.push_back(known);
  std::size_t at_point = 0;
  for (const KnownRun& other : runs) at_point += same_point(other.run, known.run) ? 1 : 0;
  // The oldest runs of the point go first (runs are kept in the order they came).
  for (auto it = runs.begin(); at_point > kRunsKeptPerPoint && it != runs.end();) {
    if (same_point(it->run, known.run)) {
      it = runs.erase(it);
      --at_point;
    } else {
      ++it;
    }
  }
}

std::vector<knowledge::Measurement> KindKnowledge::measurements() const {
  std::vector<knowledge::Measurement> all;
  all.reserve(runs.size());
  for (const KnownRun& known : runs) all.push_back(known.run);
  return all;
}

std::size_t KindKnowledge::count(RunSource source) const {
  return static_cast<std::size_t>(
      std::count_if(runs.begin(), runs.end(), [&](const KnownRun& known) { return known.source == source; }));
}

KindKnowledge parse_kind_knowledge(std::string_view text, const std::string& source) {
  const json root = parse_json_text(text, source);
  const JsonFields fields(root, source);
  check_file_format(fields, source, kKindKnowledgeFormat, kKindKnowledgeFormatVersion);
  KindKnowledge knowledge;
  const auto node = fields.object("node");
  if (!node) throw InputError(source, "missing \"node\"");
  knowledge.node = node_from(*node);
  const auto task = fields.object("task");
  if (!task) throw InputError(source, "missing \"task\"");
  knowledge.task = task_from(*task);
  if (const auto program = fields.object("program")) knowledge.program = program_from(*program);
  for (const JsonFields& run : fields.objects("runs")) knowledge.runs.push_back(run_from(run));
  if (const auto probe = fields.object("probe")) knowledge.probe = probe_from(*probe);
  return knowledge;
}

std::string kind_knowledge_to_json(const KindKnowledge& knowledge) {
  json runs = json::array();
  for (const KnownRun& known : knowledge.runs) runs.push_back(run_json(known));
  json root = {{"format", kKindKnowledgeFormat},
               {"format_version", kKindKnowledgeFormatVersion},
               {"node", node_json(knowledge.node)},
               {"task", knowledge.task.key()},
               {"runs", std::move(runs)}};
  if (knowledge.program) root["program"] = program_json(*knowledge.program);
  if (knowledge.probe) root["probe"] = probe_json(*knowledge.probe);
  return root.dump(1) + "\n";
}

std::filesystem::path knowledge_path(const ProfileCache& cache, const CachedTask& task) {
  return cache.node_folder() / "knowledge" / task.file_name();
}

KnowledgeLookup look_up_knowledge(const ProfileCache& cache, const CachedTask& task) {
  KnowledgeLookup found;
  found.path = knowledge_path(cache, task);
  found.knowledge.node = cache.node();
  found.knowledge.task = task;
  if (!task.is_stream()) found.knowledge.program = program_stamp(task.argv.front());
  std::error_code error;
  const auto status = std::filesystem::status(found.path, error);
  if (!std::filesystem::exists(status)) return found;
  if (!std::filesystem::is_regular_file(status)) {
    throw InputError(found.path.string(), "is not a file: this kind's knowledge cannot be kept there; remove it");
  }
  KindKnowledge stored;
  try {
    stored = parse_kind_knowledge(read_text_file(found.path, "task knowledge"), found.path.string());
  } catch (const InputError& e) {
    found.note = fmt::format("its knowledge is unreadable and starts afresh ({})", e.what());
    return found;
  }
  if (stored.node != cache.node() || stored.task != task) {
    found.note = stored.node != cache.node() ? "its knowledge was of another node: it starts afresh"
                                             : "its knowledge file holds another task than its name says: it starts "
                                               "afresh";
    return found;
  }
  if (!task.is_stream() && stored.program != found.knowledge.program) {
    found.note = fmt::format("{} changed since it was measured: what was known of it is dropped", task.argv.front());
    return found;
  }
  found.knowledge = std::move(stored);
  return found;
}

void check_knowledge_store(const ProfileCache& cache) {
  const std::pair<std::filesystem::path, bool> kept[] = {{cache.node_folder() / "knowledge", true},
                                                         {launch_history_path(cache), false}};
  for (const auto& [path, folder] : kept) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (!std::filesystem::exists(status) || std::filesystem::is_directory(status) == folder) continue;
    throw InputError(path.string(), folder ? "is not a folder: the task knowledge of this node cannot be kept there; "
                                             "remove it"
                                           : "is not a file: this node's launch history cannot be kept there; "
                                             "remove it");
  }
}

std::vector<KindKnowledge> stored_knowledge(const ProfileCache& cache) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (std::filesystem::directory_iterator it(cache.node_folder() / "knowledge", error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().extension() == ".json" && it->path().filename().string().front() != '.') files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::vector<KindKnowledge> stored;
  for (const std::filesystem::path& file : files) {
    try {
      KindKnowledge knowledge = parse_kind_knowledge(read_text_file(file, "task knowledge"), file.string());
      if (knowledge.node == cache.node() && file.filename() == knowledge.task.file_name()) {
        stored.push_back(std::move(knowledge));
      }
    } catch (const Error&) {
      // Unreadable (or gone since listed): its own kind's lookup says so; here it is only not a relative.
    }
  }
  return stored;
}

void store_knowledge(const ProfileCache& cache, const KindKnowledge& knowledge) {
  const std::filesystem::path path = knowledge_path(cache, knowledge.task);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) throw PlatformError("mkdir", path.parent_path().string(), error.value());
  write_text_file(path, kind_knowledge_to_json(knowledge), Overwrite::replace, "task knowledge");
}

}  // namespace cosched::profiler
