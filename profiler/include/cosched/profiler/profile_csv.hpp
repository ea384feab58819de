#pragma once
// Long-format profile CSV: a header line, then one row per point, columns
//   kernel,footprint_bytes,cores,chunks,time_s,time_min_s,time_max_s,reps,gbs,status,fixed_s,paired_s,
//   paired_min_s,paired_max_s
// status is "ok", or why a point has no time (a command that failed: "exit-3", "timeout", ...); such a row leaves
// time_s, time_min_s, time_max_s and gbs empty and has reps 0, so no reader can take it for a time. fixed_s is the
// seconds a run pays whatever its passes, empty when the point was not timed at two pass counts. paired_s is the
// time (in time_s's unit) with a copy beside it (the memory-demand probe, ProfileRow::paired_s), empty elsewhere;
// paired_min_s and paired_max_s its spread, set with it. Files written before the status, fixed_s, paired_s or
// paired range columns (the header without them) are still read, every row "ok", without a fixed cost, a pairing
// or its spread; resuming one rewrites it with the columns.
// pandas reads it as is (pd.read_csv). Rows are written and flushed one at a time so an interrupted sweep leaves
// a valid file; a reader drops a truncated last line (no final newline) so that point is measured again.
// The one reader (read_profile_csv) and the one writer (ProfileCsvWriter, format_profile_row); docs/formats.md.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

inline constexpr const char* kProfileCsvHeader =
    "kernel,footprint_bytes,cores,chunks,time_s,time_min_s,time_max_s,reps,gbs,status,fixed_s,paired_s,paired_min_s,"
    "paired_max_s";
// The headers of older files, still read: before the paired range columns, before the paired_s column too, before
// the fixed_s column too, and before the status column too.
inline constexpr const char* kProfileCsvHeaderWithoutPairedRange =
    "kernel,footprint_bytes,cores,chunks,time_s,time_min_s,time_max_s,reps,gbs,status,fixed_s,paired_s";
inline constexpr const char* kProfileCsvHeaderWithoutPaired =
    "kernel,footprint_bytes,cores,chunks,time_s,time_min_s,time_max_s,reps,gbs,status,fixed_s";
inline constexpr const char* kProfileCsvHeaderWithoutFixed =
    "kernel,footprint_bytes,cores,chunks,time_s,time_min_s,time_max_s,reps,gbs,status";
inline constexpr const char* kProfileCsvHeaderWithoutStatus =
    "kernel,footprint_bytes,cores,chunks,time_s,time_min_s,time_max_s,reps,gbs";

// Throws InputError(where, ...) unless `kernel` names a kernel a profile can hold: the STREAM kernel table's
// (write, ddot, copy, scale, add, triad, ...) or a profiled command, "command:<identifier>".
void check_profile_kernel(std::string_view kernel, const std::string& where);

// Throws InputError(where, ...) for a row no measurement can give: an unknown kernel, footprint_bytes of 0 (but
// for a command, whose footprint is optional), cores or reps of 0, a status that is not a token, a time that is not finite and in (0, kMaxSeconds], time_min_s <= time_s <= time_max_s violated, or a
// gbs that is not finite and >= 0, a fixed_s that is not finite and in [0, kMaxSeconds], a paired_s that is not
// finite and in (0, kMaxSeconds], paired_min_s and paired_max_s not both set with paired_s or not with
// paired_min_s <= paired_s <= paired_max_s. A failed row (status not "ok") must have
// reps, times and gbs 0 and no fixed_s or paired_s.
void check_profile_row(const ProfileRow& row, const std::string& where);

struct ProfileCsvContents {
  std::vector<ProfileRow> rows;
  std::vector<std::size_t> lines;     // lines[i]: the 1-based line of rows[i] in the file
  bool truncated_tail = false;        // the last line had no newline and was dropped
  bool has_status_column = true;      // false for a file written before the status column
  bool has_fixed_column = true;       // false for a file written before the fixed_s column
  bool has_paired_column = true;      // false for a file written before the paired_s column
  bool has_paired_range_column = true;  // false for a file written before paired_min_s and paired_max_s
  std::uintmax_t complete_bytes = 0;  // bytes of the file up to the end of the last complete line
};

// Parses a profile CSV. Throws InputError("file:line", ...) for a wrong header, a malformed complete row, a row
// check_profile_row refuses, or a point (kernel, footprint, cores, chunks) measured twice (both lines named).
[[nodiscard]] ProfileCsvContents read_profile_csv(const std::filesystem::path& path);

[[nodiscard]] std::string format_profile_row(const ProfileRow& row);

// Appends rows to a profile CSV, one flushed line per row.
class ProfileCsvWriter {
 public:
  enum class Mode { create, resume };
  // create: the header goes into a temporary file beside `path` (a device such as /dev/null is written in place),
  // which replaces `path` only when the first row is appended: a sweep whose first point fails leaves no
  // header-only CSV, and an existing file replaced with --force stays as it was (issue #27). resume: the file must
  // exist with a valid header; a truncated last line is cut off before appending. Throws InputError /
  // PlatformError (a failed write or flush, e.g. a full disk or /dev/full: rows that cannot be written are an
  // error, never a silent loss).
  ProfileCsvWriter(const std::filesystem::path& path, Mode mode);
  ~ProfileCsvWriter();  // a CSV never published (no row) is removed
  ProfileCsvWriter(const ProfileCsvWriter&) = delete;
  ProfileCsvWriter& operator=(const ProfileCsvWriter&) = delete;

  // Rows already in the file (resume mode), for skipping done points.
  [[nodiscard]] const std::vector<ProfileRow>& existing_rows() const noexcept { return existing_; }
  [[nodiscard]] bool dropped_truncated_tail() const noexcept { return dropped_tail_; }

  // Called once, just before the CSV with its first row replaces `path` (create mode): the sidecar is written
  // there, so that a sweep that writes no row writes no sidecar either.
  void on_publish(std::function<void()> publish) { publish_ = std::move(publish); }
  // Whether the CSV is at its path: resumed, written in place, or given its first row.
  [[nodiscard]] bool published() const noexcept { return pending_.empty(); }

  void append(const ProfileRow& row);

 private:
  std::filesystem::path path_;
  std::filesystem::path pending_;  // the temporary file until the first row (create mode); empty once published
  int fd_ = -1;  // rows are appended with one write(2) each
  std::function<void()> publish_;
  std::vector<ProfileRow> existing_;
  bool dropped_tail_ = false;
};

}  // namespace cosched::profiler
