#pragma once
// Long-format profile CSV: a header line, then one row per point, columns
//   kernel,footprint_bytes,cores,chunks,time_s,time_min_s,time_max_s,reps,gbs
// pandas reads it as is (pd.read_csv). Rows are written and flushed one at a time so an interrupted sweep leaves
// a valid file; a reader drops a truncated last line (no final newline) so that point is measured again.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

inline constexpr const char* kProfileCsvHeader =
    "kernel,footprint_bytes,cores,chunks,time_s,time_min_s,time_max_s,reps,gbs";

struct ProfileCsvContents {
  std::vector<ProfileRow> rows;
  bool truncated_tail = false;        // the last line had no newline and was dropped
  std::uintmax_t complete_bytes = 0;  // bytes of the file up to the end of the last complete line
};

// Parses a profile CSV. Throws InputError("file:line", ...) for a wrong header or a malformed complete row.
[[nodiscard]] ProfileCsvContents read_profile_csv(const std::filesystem::path& path);

[[nodiscard]] std::string format_profile_row(const ProfileRow& row);

// Appends rows to a profile CSV, one flushed line per row.
class ProfileCsvWriter {
 public:
  enum class Mode { create, resume };
  // create: truncates/creates the file and writes the header. resume: the file must exist with a valid header;
  // a truncated last line is cut off before appending. Throws InputError / PlatformError.
  ProfileCsvWriter(const std::filesystem::path& path, Mode mode);
  ~ProfileCsvWriter();
  ProfileCsvWriter(const ProfileCsvWriter&) = delete;
  ProfileCsvWriter& operator=(const ProfileCsvWriter&) = delete;

  // Rows already in the file (resume mode), for skipping done points.
  [[nodiscard]] const std::vector<ProfileRow>& existing_rows() const noexcept { return existing_; }
  [[nodiscard]] bool dropped_truncated_tail() const noexcept { return dropped_tail_; }

  void append(const ProfileRow& row);

 private:
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  std::vector<ProfileRow> existing_;
  bool dropped_tail_ = false;
};

}  // namespace cosched::profiler
