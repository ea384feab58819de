// Batsim's _jobs.csv for cosched's online runs: the one writer and the one parser, and the run as an SWF log.
#include "cosched/online/jobs_csv.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"

namespace cosched::online {

namespace {

constexpr std::array<std::string_view, 4> kFinalStates{"COMPLETED_SUCCESSFULLY", "COMPLETED_FAILED",
                                                       "COMPLETED_KILLED", "NOT_STARTED"};

// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted(1, '"');
  for (const char c : text) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  quoted.push_back('"');
  return quoted;
}

std::string allocation_text(const std::vector<int>& allocation) {
  std::string text;
  for (const int amount : allocation) {
    if (!text.empty()) text.push_back(' ');
    text.append(std::to_string(amount));
  }
  return text;
}

// The fields of every record of `text` (quoted fields may hold commas and line breaks), each with its first line.
struct CsvLine {
  std::size_t line = 0;
  std::vector<std::string> fields;
};
std::vector<CsvLine> split_csv(std::string_view text, const std::string& source) {
  std::vector<CsvLine> lines;
  CsvLine current{1, {}};
  std::string field;
  bool quoted = false;
  bool any = false;  // the current record has a character
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty()) {
      quoted = any = true;
    } else if (c == ',') {
      current.fields.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any) {
        current.fields.push_back(std::move(field));
        lines.push_back(std::move(current));
      }
      field.clear();
      any = false;
      current = CsvLine{++line, {}};
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) throw InputError(fmt::format("{}:{}", source, current.line), "a quoted field is not closed");
  if (any) {
    current.fields.push_back(std::move(field));
    lines.push_back(std::move(current));
  }
  return lines;
}

double parse_number(const std::string& text, const std::string& where, std::string_view column) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw InputError(where, fmt::format("{} is not a finite number: \"{}\"", column, text));
  }
  return value + 0.0;
}

int parse_int(const std::string& text, const std::string& where, std::string_view column) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw InputError(where, fmt::format("{} is not an integer: \"{}\"", column, text));
  }
  return value;
}

}  // namespace

const std::vector<std::string_view>& job_csv_columns() {
  static const std::vector<std::string_view> columns{
      "job_id",        "workload_name",  "submission_time", "requested_number_of_resources", "requested_time",
      "success",       "final_state",    "starting_time",   "execution_time",                "finish_time",
      "waiting_time",  "turnaround_time", "stretch",        "allocated_resources",           "user",
      "campaign",      "reference_time", "allocation"};
  return columns;
}

std::string interval_set(const std::vector<int>& sorted_processors) {
  std::string text;
  for (std::size_t i = 0; i < sorted_processors.size();) {
    std::size_t j = i;
    while (j + 1 < sorted_processors.size() && sorted_processors[j + 1] == sorted_processors[j] + 1) ++j;
    if (!text.empty()) text += ' ';
    text += j == i ? std::to_string(sorted_processors[i])
                   : fmt::format("{}-{}", sorted_processors[i], sorted_processors[j]);
    i = j + 1;
  }
  return text;
}

std::string to_jobs_csv(const std::vector<JobRecord>& records) {
  std::string text;
  text.append(fmt::format("{}\n", fmt::join(job_csv_columns(), ",")));
  for (const JobRecord& r : records) {
    // fmt's "{}" of a double is the shortest text that reads back to the same value.
    text += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.job_id),
                        csv_field(r.workload_name), r.submission_time, r.requested_number_of_resources,
                        r.requested_time, r.success ? 1 : 0, r.final_state, r.starting_time, r.execution_time,
                        r.finish_time, r.waiting_time, r.turnaround_time, r.stretch, csv_field(r.allocated_resources),
                        csv_field(r.user), r.campaign ? std::to_string(*r.campaign) : std::string(),
                        r.reference_time, allocation_text(r.allocation));
  }
  return text;
}

std::vector<JobRecord> parse_jobs_csv(std::string_view text, const std::string& source) {
  const std::vector<CsvLine> lines = split_csv(text, source);
  const auto& columns = job_csv_columns();
  if (lines.empty() || !std::equal(lines[0].fields.begin(), lines[0].fields.end(), columns.begin(), columns.end())) {
    throw InputError(fmt::format("{}:1", source), fmt::format("the header must be {}", fmt::join(columns, ",")));
  }
  std::vector<JobRecord> records;
  records.reserve(lines.size() - 1);
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const std::vector<std::string>& f = lines[k].fields;
    const std::string where = fmt::format("{}:{}", source, lines[k].line);
    if (f.size() != columns.size()) {
      throw InputError(where, fmt::format("{} fields, the header has {}", f.size(), columns.size()));
    }
    const auto number = [&](std::size_t i) { return parse_number(f[i], where, columns[i]); };
    JobRecord r;
    r.job_id = f[0];
    r.workload_name = f[1];
    r.submission_time = number(2);
    r.requested_number_of_resources = parse_int(f[3], where, columns[3]);
    r.requested_time = number(4);
    if (f[5] != "0" && f[5] != "1") throw InputError(where, fmt::format("success must be 0 or 1, got \"{}\"", f[5]));
    r.success = f[5] == "1";
    if (std::find(kFinalStates.begin(), kFinalStates.end(), f[6]) == kFinalStates.end()) {
      throw InputError(where, fmt::format("final_state \"{}\" is not one of {}", f[6], fmt::join(kFinalStates, ", ")));
    }
    r.final_state = f[6];
    r.starting_time = number(7);
    r.execution_time = number(8);
    r.finish_time = number(9);
    r.waiting_time = number(10);
    r.turnaround_time = number(11);
    r.stretch = number(12);
    r.allocated_resources = f[13];
    r.user = f[14];
    if (!f[15].empty()) {
      const int campaign = parse_int(f[15], where, columns[15]);
      if (campaign < 0) throw InputError(where, fmt::format("campaign {} is negative", campaign));
      r.campaign = static_cast<std::size_t>(campaign);
    }
    r.reference_time = number(16);
    for (std::size_t at = 0; at < f[17].size();) {
      std::size_t end = f[17].find(' ', at);
      if (end == std::string::npos) end = f[17].size();
      r.allocation.push_back(parse_int(f[17].substr(at, end - at), where, columns[17]));
      at = end + 1;
    }
    records.push_back(std::move(r));
  }
  return records;
}

std::vector<JobRecord> load_jobs_csv(const std::filesystem::path& path) {
  return parse_jobs_csv(read_text_file(path, "jobs CSV"), path.string());
}

SwfTrace swf_of_jobs(const std::vector<JobRecord>& records, int processors, std::vector<std::string> header) {
  SwfTrace trace;
  trace.header = std::move(header);
  // SWF user ids are numbers: a trace's stay as they are; any other user gets the next free number. A number is
  // kept only as SWF writes one (no sign, no leading zero: "03" is not user 3) and within an int (so the next free
  // number cannot overflow).
  std::map<std::string, std::int64_t> user_ids;
  std::int64_t next_user = 1;
  for (const JobRecord& r : records) {
    std::int64_t id = 0;
    const auto [end, error] = std::from_chars(r.user.data(), r.user.data() + r.user.size(), id);
    if (!r.user.empty() && error == std::errc() && end == r.user.data() + r.user.size() && id >= 0 &&
        id <= std::numeric_limits<std::int32_t>::max() && std::to_string(id) == r.user) {
      user_ids.emplace(r.user, id);
      next_user = std::max(next_user, id + 1);
    }
  }
  for (const JobRecord& r : records) {
    if (r.user.empty() || user_ids.contains(r.user)) continue;
    trace.header.push_back(fmt::format(" User: {} = {}", next_user, r.user));
    user_ids.emplace(r.user, next_user++);
  }
  trace.header.push_back(" Version: 2.2");
  trace.header.push_back(" Computer: cosched online (simulated or run schedule)");
  trace.header.push_back(fmt::format(" MaxJobs: {}", records.size()));
  trace.header.push_back(fmt::format(" MaxRecords: {}", records.size()));
  trace.header.push_back(fmt::format(" MaxProcs: {}", processors));
  std::vector<std::size_t> order(records.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return records[a].submission_time < records[b].submission_time;
  });
  for (const std::size_t k : order) {
    const JobRecord& r = records[k];
    SwfRecord line;
    line.job_number = static_cast<std::int64_t>(k + 1);
    line.submit_time = r.submission_time;
    const bool ran = r.final_state != "NOT_STARTED";
    if (ran) {
      line.wait_time = std::max(0.0, r.waiting_time);  // a release due "now" up to rounding may start a hair early
      line.run_time = r.execution_time;
      line.allocated_procs = r.allocation.empty() ? -1 : r.allocation.front();
    }
    line.requested_procs = r.requested_number_of_resources;
    line.requested_time = r.requested_time;
    line.status = r.success ? 1 : (r.final_state == "COMPLETED_FAILED" ? 0 : 5);
    if (!r.user.empty()) line.user_id = user_ids.at(r.user);
    trace.records.push_back(line);
  }
  return trace;
}

}  // namespace cosched::online
