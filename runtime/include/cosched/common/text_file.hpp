#pragma once
// Whole text files in and out, the one place the project does either.
//   read_text_file  — the file's bytes, with an error that names the file and what it was for.
//   write_text_file — written whole or not at all: a temporary file beside the target, flushed, fsynced and
//                     closed, then renamed over it, so a full disk or a crash never leaves half an output and
//                     never destroys the previous one. An existing output is replaced only when asked (--force).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cosched {

// The file's bytes, unchanged. Throws InputError("<path>", ...) when it is missing, a directory or unreadable.
[[nodiscard]] std::string read_text_file(const std::filesystem::path& path, const std::string& what);

enum class Overwrite { refuse, replace };
// A command's --force: its outputs replace existing files only when it is given.
[[nodiscard]] constexpr Overwrite overwrite_if_forced(bool force) noexcept {
  return force ? Overwrite::replace : Overwrite::refuse;
}

// Checks an output path before any work is done for it: not a directory, its folder exists, and (refuse) no file
// is there yet. Throws UsageError naming `what` and the option that allows replacing (--force).
void check_output_path(const std::filesystem::path& path, Overwrite overwrite, const std::string& what);

// One output of a command: its path and what it is ("jobs CSV"), as check_output_path names it.
struct CommandOutput {
  std::filesystem::path path;
  std::string what;
};
// Every output of one command, checked together before any is written (issue 41: `online --jobs-out X --swf-out X`
// wrote X, then refused the second as existing): each as check_output_path, and no two naming the same file (a
// link or another spelling included; standard output "-" too, devices apart). Throws UsageError naming both.
void check_output_paths(const std::vector<CommandOutput>& outputs, Overwrite overwrite);

// Writes `content` to `path` atomically (see above). "-" writes to standard output. A character device or FIFO
// (/dev/null, /dev/full, a pipe) is written in place, with every write error reported. Throws UsageError for a
// path check_output_path refuses and PlatformError naming the call for a failed write, flush, fsync or rename.
void write_text_file(const std::filesystem::path& path, std::string_view content, Overwrite overwrite,
                     const std::string& what);

// A new empty file beside `target` (its folder, so that renaming it onto `target` is atomic), named
// .<target name>.<pid>.XXXXXX, locked (flock) by this process as long as the descriptor is open, with the usual
// permissions (0666 & ~umask): where write_text_file builds an output, and where an output written in steps (a
// profile CSV) waits for its first row. The temporaries of `target` an earlier writer left when it was killed (its
// pid gone, its lock free) are removed first. Throws PlatformError.
struct TemporaryFile {
  int fd = -1;
  std::filesystem::path path;
};
[[nodiscard]] TemporaryFile create_temporary_beside(const std::filesystem::path& target);

// Flushes standard output and reports a write error that happened on it (a full disk, a closed pipe): output
// that could not be written is an error, not a success. Throws PlatformError.
void flush_standard_output();

}  // namespace cosched
