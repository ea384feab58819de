#include "cosched/common/text_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cosched/common/error.hpp"

namespace cosched {

namespace fs = std::filesystem;

std::string read_text_file(const fs::path& path, const std::string& what) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path.string(), what + " is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "cannot open " + what);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InputError(path.string(), "cannot read " + what);
  return buffer.str();
}

namespace {

bool is_special_file(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return false;
  return S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode);
}

// write(2) until done; EINTR is retried, anything else is the caller's error to report.
void write_all(int fd, std::string_view content, const std::string& name) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw PlatformError("write", name, errno);
    }
    written += static_cast<std::size_t>(n);
  }
}

void write_in_place(const fs::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw PlatformError("open", path.string(), errno);
  try {
    write_all(fd, content, path.string());
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) throw PlatformError("close", path.string(), errno);
}

}  // namespace

void check_output_path(const fs::path& path, Overwrite overwrite, const std::string& what) {
  if (path.empty()) throw UsageError("no file named for the " + what);
  if (path == "-") return;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (fs::is_directory(status)) {
    throw UsageError(path.string() + ": is a directory; the " + what + " needs a file name");
  }
  if (fs::exists(status) && !fs::is_regular_file(status)) return;  // a device or pipe, written in place
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec)) {
    throw UsageError(path.string() + ": folder " + folder.string() + " does not exist (" + what + ")");
  }
  if (overwrite == Overwrite::refuse && fs::exists(status)) {
    throw UsageError(path.string() + ": exists; the " + what + " replaces a file only with --force");
  }
}

void write_text_file(const fs::path& path, std::string_view content, Overwrite overwrite, const std::string& what) {
  check_output_path(path, overwrite, what);
  if (path == "-") {
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size()) {
      throw PlatformError("fwrite", "standard output", errno);
    }
    flush_standard_output();
    return;
  }
  if (is_special_file(path)) {
    write_in_place(path, content);
    return;
  }
  const TemporaryFile temporary = create_temporary_beside(path);
  const int fd = temporary.fd;
  const auto discard = [&] {
    ::close(fd);
    ::unlink(temporary.path.c_str());
  };
  try {
    write_all(fd, content, path.string());
  } catch (...) {
    discard();
    throw;
  }
  if (::fsync(fd) != 0) {
    const int error = errno;
    discard();
    throw PlatformError("fsync", path.string(), error);
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.path.c_str());
    throw PlatformError("close", path.string(), error);
  }
  if (::rename(temporary.path.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.path.c_str());
    throw PlatformError("rename", temporary.path.string() + " -> " + path.string(), error);
  }
}

namespace {

// The hidden temporaries of `target` (.<name>.<pid>.XXXXXX) whose writer is dead: not a process of this machine,
// and nobody holds the lock every writer keeps on its temporary while it lives (so a writer on another machine
// sharing the folder is left alone). A writer killed by SIGKILL or a second Ctrl-C left its temporary; the next
// write of the same target removes it (issue 41).
void remove_abandoned_temporaries(const fs::path& target) {
  std::string prefix(1, '.');
  prefix.append(target.filename().string()).push_back('.');
  std::error_code error;
  const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string rest = name.substr(prefix.size());  // <pid>.XXXXXX
    const std::size_t dot = rest.find('.');
    if (dot == 0 || dot == std::string::npos || rest.size() != dot + 7 ||
        rest.find_first_not_of("0123456789") != dot) {
      continue;
    }
    const long pid = std::strtol(rest.substr(0, dot).c_str(), nullptr, 10);
    if (pid <= 0 || pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM) continue;
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(it->path().c_str());
    ::close(fd);
  }
}

}  // namespace

void check_output_paths(const std::vector<CommandOutput>& outputs, Overwrite overwrite) {
  std::vector<std::pair<fs::path, const CommandOutput*>> files;  // where each one is, and which it is
  for (const CommandOutput& output : outputs) {
    check_output_path(output.path, overwrite, output.what);
    std::error_code ec;
    const auto status = fs::status(output.path, ec);
    if (fs::exists(status) && !fs::is_regular_file(status)) continue;  // /dev/null twice is fine
    const fs::path where = output.path == "-" ? fs::path("-") : fs::weakly_canonical(fs::absolute(output.path), ec);
    for (const auto& [seen, other] : files) {
      if (seen == where || (where != "-" && seen != "-" && fs::equivalent(seen, where, ec))) {
        throw UsageError(fmt::format("{} is named for both the {} and the {}: one would replace the other; name "
                                     "two files",
                                     bounded_echo(output.path.string()), other->what, output.what));
      }
    }
    files.emplace_back(where, &output);
  }
}

TemporaryFile create_temporary_beside(const fs::path& target) {
  remove_abandoned_temporaries(target);
  // mkstemp in the target's folder, so the rename stays within one file system and is atomic; the writer's pid in
  // the name and its lock on the file say whose it is (remove_abandoned_temporaries).
  std::string hidden_name(1, '.');
  hidden_name.append(target.filename().string()).push_back('.');
  hidden_name.append(std::to_string(::getpid())).append(".XXXXXX");
  std::string name = (target.parent_path() / hidden_name).string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw PlatformError("mkstemp", name, errno);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    ::unlink(name.c_str());
    throw PlatformError("flock", name, error);
  }
  // Outputs are meant to be read by people and other tools: the usual 0666 & ~umask, not mkstemp's 0600.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, 0666 & ~mask) != 0) {
    const int error = errno;
    ::close(fd);
    ::unlink(name.c_str());
    throw PlatformError("fchmod", name, error);
  }
  return {fd, name};
}

void flush_standard_output() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    const int error = errno;
    std::clearerr(stdout);
    throw PlatformError("write", "standard output", error);
  }
}

}  // namespace cosched
