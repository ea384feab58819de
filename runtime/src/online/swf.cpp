// The SWF schema's one parser and one writer, both driven by one table of the 18 fields.
#include "cosched/online/swf.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <optional>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"

namespace cosched::online {

namespace {

struct SwfField {
  std::string_view name;
  std::int64_t SwfRecord::*integer = nullptr;  // exactly one of the two is set
  double SwfRecord::*real = nullptr;
  double max = kMaxSwfInteger;
};

constexpr double kMaxProcs = static_cast<double>(sched::kMaxCapacity);

// Sites write "no limit" in the requested time as a large number (2^31 - 1 is common): it is kept, and
// workload_from_swf does not take it as an estimate.
const std::array<SwfField, 18> kFields{{
    {"job_number", &SwfRecord::job_number, nullptr},
    {"submit_time", nullptr, &SwfRecord::submit_time, kMaxSeconds},
    {"wait_time", nullptr, &SwfRecord::wait_time, kMaxSeconds},
    {"run_time", nullptr, &SwfRecord::run_time, kMaxSeconds},
    {"allocated_procs", &SwfRecord::allocated_procs, nullptr, kMaxProcs},
    {"average_cpu_time", nullptr, &SwfRecord::average_cpu_time, kMaxSeconds},
    {"used_memory", nullptr, &SwfRecord::used_memory},
    {"requested_procs", &SwfRecord::requested_procs, nullptr, kMaxProcs},
    {"requested_time", nullptr, &SwfRecord::requested_time},
    {"requested_memory", nullptr, &SwfRecord::requested_memory},
    {"status", &SwfRecord::status, nullptr},
    {"user_id", &SwfRecord::user_id, nullptr},
    {"group_id", &SwfRecord::group_id, nullptr},
    {"executable", &SwfRecord::executable, nullptr},
    {"queue", &SwfRecord::queue, nullptr},
    {"partition", &SwfRecord::partition, nullptr},
    {"preceding_job", &SwfRecord::preceding_job, nullptr},
    {"think_time", nullptr, &SwfRecord::think_time, kMaxSeconds},
}};

bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The value of one field, checked: a finite number, -1 or >= 0, integral for an integer field, within its limit.
double parse_field(std::string_view token, const SwfField& field, const std::string& where) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  const auto fail = [&](std::string_view problem) {
    throw InputError(where, fmt::format("field {} ({}) {}, got \"{}\"", &field - kFields.data() + 1, field.name,
                                        problem, token.size() > 40 ? std::string(token.substr(0, 40)) + "..."
                                                                   : std::string(token)));
  };
  if (error == std::errc::result_out_of_range) fail("is out of range");
  if (error != std::errc() || end != token.data() + token.size()) fail("is not a number");
  if (!std::isfinite(value)) fail("must be finite");
  if (value < 0 && value != -1) fail("is negative (only -1, unknown, may be)");
  if (field.integer != nullptr && std::floor(value) != value) fail("must be an integer");
  if (value > field.max) fail(fmt::format("is above the limit {}", field.max));
  return value + 0.0;  // -0.0 -> +0.0
}

SwfRecord parse_record(std::string_view line, const std::string& where) {
  SwfRecord record;
  std::size_t count = 0;
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (count == kFields.size()) {
      throw InputError(where, fmt::format("more than {} fields (a job line has exactly {})", kFields.size(),
                                          kFields.size()));
    }
    const SwfField& field = kFields[count++];
    const double value = parse_field(line.substr(start, i - start), field, where);
    if (field.integer != nullptr) {
      record.*field.integer = static_cast<std::int64_t>(value);
    } else {
      record.*field.real = value;
    }
  }
  if (count != kFields.size()) {
    throw InputError(where, fmt::format("{} fields, a job line has {} (missing: field {}, {})", count, kFields.size(),
                                        count + 1, kFields[count].name));
  }
  return record;
}

// The value of the header line "<key>: <value>" (leading blanks skipped), nullopt when the line is another key's.
std::optional<std::string_view> header_value(std::string_view line, std::string_view key) {
  while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
  if (!line.starts_with(key) || !line.substr(key.size()).starts_with(':')) return std::nullopt;
  line.remove_prefix(key.size() + 1);
  while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
  return line;
}

// The integer a header value starts with ("400", "400 (48 nodes)"); nullopt when it does not start with one.
std::optional<std::int64_t> leading_integer(std::string_view value) {
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || (end != value.data() + value.size() && !is_blank(*end))) return std::nullopt;
  return number;
}

// The header values cosched reads (the machine size, the trace's start for --from/--to) are checked where the
// header is parsed: "MaxProcs: lots" was ignored and "UnixStartTime: yesterday" reported as missing.
struct CheckedHeader {
  std::string_view key;
  std::int64_t min;
  std::int64_t max;
  std::string_view what;
};
constexpr std::array kCheckedHeaders{
    CheckedHeader{"MaxProcs", 1, sched::kMaxCapacity, "the machine's processor count"},
    CheckedHeader{"UnixStartTime", 0, kMaxSwfUnixTime, "the trace's start in seconds since 1970 (UTC)"},
};

void check_header_line(std::string_view line, const std::string& where) {
  for (const CheckedHeader& header : kCheckedHeaders) {
    const auto value = header_value(line, header.key);
    if (!value) continue;
    const auto number = leading_integer(*value);
    if (!number || *number < header.min || *number > header.max) {
      throw InputError(where, fmt::format("header {} must be {}, an integer in [{}, {}], got \"{}\"", header.key,
                                          header.what, header.min, header.max,
                                          value->size() > 40 ? std::string(value->substr(0, 40)) + "..."
                                                             : std::string(*value)));
    }
  }
}

}  // namespace

const std::vector<std::string_view>& swf_field_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> list;
    for (const auto& field : kFields) list.push_back(field.name);
    return list;
  }();
  return names;
}

SwfTrace parse_swf(std::string_view text, const std::string& source) {
  if (text.size() > kMaxSwfBytes) {
    throw InputError(source, fmt::format("{} bytes of text, at most {}", text.size(), kMaxSwfBytes));
  }
  SwfTrace trace;
  trace.source = source;
  std::size_t line_number = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_number;
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF; all of them, so to_swf round-trips
    const std::string where = fmt::format("{}:{}", source, line_number);
    if (line.size() > kMaxSwfLineLength) {
      throw InputError(where, fmt::format("the line has {} characters, at most {}", line.size(), kMaxSwfLineLength));
    }
    std::size_t first = 0;
    while (first < line.size() && is_blank(line[first])) ++first;
    if (first == line.size()) continue;
    if (line[first] == ';') {
      trace.header.emplace_back(line.substr(first + 1));
      check_header_line(trace.header.back(), where);
      continue;
    }
    if (trace.records.size() == kMaxSwfRecords) {
      throw InputError(where, fmt::format("more than {} job records", kMaxSwfRecords));
    }
    trace.records.push_back(parse_record(line, where));
  }
  return trace;
}

std::string to_swf(const SwfTrace& trace) {
  std::string text;
  for (const auto& line : trace.header) text += fmt::format(";{}\n", line);
  for (const auto& record : trace.records) {
    for (std::size_t i = 0; i < kFields.size(); ++i) {
      const SwfField& field = kFields[i];
      if (i > 0) text += ' ';
      // fmt's "{}" of a double is the shortest text that reads back to the same value.
      text += field.integer != nullptr ? fmt::format("{}", record.*field.integer)
                                       : fmt::format("{}", record.*field.real);
    }
    text += '\n';
  }
  return text;
}

std::optional<std::int64_t> swf_header_integer(const SwfTrace& trace, std::string_view key) {
  for (const std::string& line : trace.header) {
    if (const auto value = header_value(line, key)) return leading_integer(*value);
  }
  return std::nullopt;
}

}  // namespace cosched::online
