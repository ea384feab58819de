#include "cosched/profiler/profile_csv.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/stream/kernels.hpp"

namespace cosched::profiler {
namespace {

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

template <typename Number>
Number parse_field(std::string_view text, const std::string& where, const char* column) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) {
    throw InputError(where, fmt::format("column {}: '{}' is not a valid number", column, text));
  }
  return value;
}

// A time column of a failed row is empty: 0 in the row.
double parse_time_field(std::string_view text, bool failed, const std::string& where, const char* column) {
  if (failed) {
    if (!text.empty()) throw InputError(where, fmt::format("column {}: a failed row has no time, got '{}'", column, text));
    return 0.0;
  }
  return parse_field<double>(text, where, column);
}

// The columns a file has: its header says which of the optional trailing ones (status, fixed_s, paired_s, then
// paired_min_s and paired_max_s) it was written with; each came after the one before, so a file has the first
// `optional` of them.
struct CsvColumns {
  std::size_t optional = 5;
  [[nodiscard]] bool status() const { return optional >= 1; }
  [[nodiscard]] bool fixed() const { return optional >= 2; }
  [[nodiscard]] bool paired() const { return optional >= 3; }
  [[nodiscard]] bool paired_range() const { return optional >= 5; }
  [[nodiscard]] std::size_t count() const { return 9 + optional; }
};

ProfileRow parse_row(std::string_view line, CsvColumns columns, const std::string& where) {
  const auto fields = split_fields(line);
  const std::size_t expected = columns.count();
  if (fields.size() != expected) {
    throw InputError(where, fmt::format("expected {} comma-separated fields, found {}", expected, fields.size()));
  }
  ProfileRow row;
  if (columns.status()) row.status = std::string(fields[9]);
  const bool failed = !row.ok();
  row.point.kernel = std::string(fields[0]);
  if (row.point.kernel.empty()) throw InputError(where, "column kernel is empty");
  row.point.footprint_bytes = parse_field<std::uint64_t>(fields[1], where, "footprint_bytes");
  row.point.cores = parse_field<unsigned>(fields[2], where, "cores");
  row.point.chunks = parse_field<unsigned>(fields[3], where, "chunks");
  row.time_s = parse_time_field(fields[4], failed, where, "time_s");
  row.time_min_s = parse_time_field(fields[5], failed, where, "time_min_s");
  row.time_max_s = parse_time_field(fields[6], failed, where, "time_max_s");
  row.reps = parse_field<unsigned>(fields[7], where, "reps");
  row.gbs = parse_time_field(fields[8], failed, where, "gbs");
  if (columns.fixed() && !fields[10].empty()) row.fixed_s = parse_field<double>(fields[10], where, "fixed_s");
  if (columns.paired() && !fields[11].empty()) row.paired_s = parse_field<double>(fields[11], where, "paired_s");
  if (columns.paired_range() && !fields[12].empty()) {
    row.paired_min_s = parse_field<double>(fields[12], where, "paired_min_s");
  }
  if (columns.paired_range() && !fields[13].empty()) {
    row.paired_max_s = parse_field<double>(fields[13], where, "paired_max_s");
  }
  check_profile_row(row, where);
  return row;
}

// All of `text` written to `fd` (a short write is continued, an interrupted one retried); a failed write is
// reported with the file's name.
void write_checked(int fd, std::string_view text, const std::filesystem::path& path) {
  while (!text.empty()) {
    const ssize_t written = ::write(fd, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw PlatformError("write", path.string(), written < 0 ? errno : EIO);
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

// Opens `path` for writing (O_CLOEXEC) with `flags`; throws PlatformError.
int open_for_writing(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | flags, 0666);
  if (fd < 0) throw PlatformError("open", path.string(), errno);
  return fd;
}

}  // namespace

void check_profile_kernel(std::string_view kernel, const std::string& where) {
  if (kernel.starts_with(kCommandKernelPrefix)) {
    check_identifier(std::string(command_name_of(kernel)), where + ": command name of kernel '" + std::string(kernel) + "'");
    return;
  }
  for (const auto& spec : stream::kernel_table()) {
    if (spec.name == kernel) return;
  }
  throw InputError(where, fmt::format("unknown kernel '{}' (known: {}, or command:<name>)", kernel,
                                      stream::kernel_names()));
}

void check_profile_row(const ProfileRow& row, const std::string& where) {
  check_profile_kernel(row.point.kernel, where);
  const bool command = row.point.kernel.starts_with(kCommandKernelPrefix);
  if (row.point.footprint_bytes == 0 && !command) throw InputError(where, "footprint_bytes must be at least 1");
  if (row.point.cores == 0) throw InputError(where, "cores must be at least 1");
  if (row.status.empty() || row.status.find_first_of(",\r\n\" ") != std::string::npos) {
    throw InputError(where, fmt::format("column status: '{}' is not a status word", row.status));
  }
  if (!row.ok()) {
    if (row.reps != 0 || row.time_s != 0.0 || row.time_min_s != 0.0 || row.time_max_s != 0.0 || row.gbs != 0.0 ||
        row.fixed_s || row.paired_s || row.paired_min_s || row.paired_max_s) {
      throw InputError(where, fmt::format("a row with status '{}' has no time and reps 0", row.status));
    }
    return;
  }
  if (row.reps == 0) throw InputError(where, "reps must be at least 1");
  const Range seconds = positive_up_to(kMaxSeconds);
  (void)checked_number(row.time_s, seconds, where, "time_s");
  (void)checked_number(row.time_min_s, seconds, where, "time_min_s");
  (void)checked_number(row.time_max_s, seconds, where, "time_max_s");
  if (!(row.time_min_s <= row.time_s && row.time_s <= row.time_max_s)) {
    throw InputError(where, fmt::format("time_min_s <= time_s <= time_max_s must hold, got {}, {}, {}",
                                        row.time_min_s, row.time_s, row.time_max_s));
  }
  (void)checked_number(row.gbs, non_negative_up_to(1e15), where, "gbs");  // 1 PB/s: beyond any memory
  if (row.fixed_s) (void)checked_number(*row.fixed_s, non_negative_up_to(kMaxSeconds), where, "fixed_s");
  if (row.paired_s) (void)checked_number(*row.paired_s, seconds, where, "paired_s");
  if (!row.paired_min_s && !row.paired_max_s) return;
  if (!row.paired_s || !row.paired_min_s || !row.paired_max_s) {
    throw InputError(where, "paired_min_s and paired_max_s go together, with paired_s");
  }
  (void)checked_number(*row.paired_min_s, seconds, where, "paired_min_s");
  (void)checked_number(*row.paired_max_s, seconds, where, "paired_max_s");
  if (!(*row.paired_min_s <= *row.paired_s && *row.paired_s <= *row.paired_max_s)) {
    throw InputError(where, fmt::format("paired_min_s <= paired_s <= paired_max_s must hold, got {}, {}, {}",
                                        *row.paired_min_s, *row.paired_s, *row.paired_max_s));
  }
}

std::string format_profile_row(const ProfileRow& row) {
  if (!row.ok()) {  // never a time: the time columns stay empty
    return fmt::format("{},{},{},{},,,,0,,{},,,,", row.point.kernel, row.point.footprint_bytes, row.point.cores,
                       row.point.chunks, row.status);
  }
  // "{}" prints the shortest representation that reads back to the same double: the round trip is exact.
  const auto optional = [](const std::optional<double>& value) {
    return value ? fmt::format("{}", *value) : std::string();
  };
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}", row.point.kernel, row.point.footprint_bytes,
                     row.point.cores, row.point.chunks, row.time_s, row.time_min_s, row.time_max_s, row.reps, row.gbs,
                     row.status, optional(row.fixed_s), optional(row.paired_s), optional(row.paired_min_s),
                     optional(row.paired_max_s));
}

ProfileCsvContents read_profile_csv(const std::filesystem::path& path) {
  const std::string text = read_text_file(path, "profile CSV");

  ProfileCsvContents contents;
  std::map<ProfilePoint, std::size_t> line_of;  // every point once: a second measurement of it is ambiguous
  std::size_t start = 0;
  std::size_t line_number = 0;
  CsvColumns columns;
  while (start < text.size()) {
    const std::size_t newline = text.find('\n', start);
    ++line_number;
    const std::string where = fmt::format("{}:{}", path.string(), line_number);
    if (newline == std::string::npos) {
      // An interrupted write: the row is incomplete whatever it looks like, so it is measured again.
      contents.truncated_tail = true;
      break;
    }
    std::string_view line(text.data() + start, newline - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line_number == 1) {
      if (line == kProfileCsvHeaderWithoutPairedRange) {
        columns.optional = 3;
      } else if (line == kProfileCsvHeaderWithoutPaired) {
        columns.optional = 2;
      } else if (line == kProfileCsvHeaderWithoutFixed) {
        columns.optional = 1;
      } else if (line == kProfileCsvHeaderWithoutStatus) {
        columns.optional = 0;
      } else if (line != kProfileCsvHeader) {
        throw InputError(where, fmt::format("not a profile CSV: header must be '{}'", kProfileCsvHeader));
      }
      contents.has_status_column = columns.status();
      contents.has_fixed_column = columns.fixed();
      contents.has_paired_column = columns.paired();
      contents.has_paired_range_column = columns.paired_range();
    } else if (!line.empty()) {
      ProfileRow row = parse_row(line, columns, where);
      if (const auto [it, inserted] = line_of.emplace(row.point, line_number); !inserted) {
        throw InputError(where, fmt::format("the point kernel={} footprint_bytes={} cores={} chunks={} is already on "
                                            "line {}",
                                            row.point.kernel, row.point.footprint_bytes, row.point.cores,
                                            row.point.chunks, it->second));
      }
      contents.rows.push_back(std::move(row));
      contents.lines.push_back(line_number);
    }
    start = newline + 1;
    contents.complete_bytes = start;
  }
  if (line_number == 0 || (line_number == 1 && contents.truncated_tail)) {
    throw InputError(path.string(), "empty profile CSV (no complete header line)");
  }
  return contents;
}

ProfileCsvWriter::ProfileCsvWriter(const std::filesystem::path& path, Mode mode) : path_(path) {
  if (mode == Mode::resume) {
    auto contents = read_profile_csv(path);
    existing_ = std::move(contents.rows);
    dropped_tail_ = contents.truncated_tail;
    if (dropped_tail_) std::filesystem::resize_file(path, contents.complete_bytes);
    if (!contents.has_paired_range_column) {
      // Written before the status, fixed_s, paired_s or paired range columns: rewrite it whole with the columns, so
      // the rows appended match.
      std::string text = std::string(kProfileCsvHeader) + "\n";
      for (const auto& row : existing_) text += format_profile_row(row) + "\n";
      write_text_file(path, text, Overwrite::replace, "profile CSV");
    }
    fd_ = open_for_writing(path, O_APPEND);
    return;
  }
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    fd_ = open_for_writing(path, O_TRUNC);  // a device or a pipe: written in place, nothing to publish
  } else {
    const TemporaryFile temporary = create_temporary_beside(path);
    fd_ = temporary.fd;
    pending_ = temporary.path;
  }
  try {
    write_checked(fd_, std::string(kProfileCsvHeader) + "\n", path_);
  } catch (...) {
    ::close(fd_);  // the destructor does not run for a constructor that throws
    if (!pending_.empty()) std::filesystem::remove(pending_, error);
    throw;
  }
}

ProfileCsvWriter::~ProfileCsvWriter() {
  if (fd_ >= 0) ::close(fd_);
  std::error_code error;
  if (!pending_.empty()) std::filesystem::remove(pending_, error);  // never published: no header-only CSV
}

void ProfileCsvWriter::append(const ProfileRow& row) {
  // One write + flush per row: after a crash or Ctrl-C at most the last line is incomplete.
  write_checked(fd_, format_profile_row(row) + "\n", path_);
  if (pending_.empty()) return;
  // The first row: the sidecar, then the CSV (header and this row) replaces the target; the descriptor follows
  // the renamed file, so later rows go on being appended to it.
  if (publish_) publish_();
  if (::rename(pending_.c_str(), path_.c_str()) != 0) {
    throw PlatformError("rename", pending_.string() + " -> " + path_.string(), errno);
  }
  pending_.clear();
}

}  // namespace cosched::profiler
