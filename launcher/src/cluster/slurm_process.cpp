#include "cluster/slurm_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "cosched/common/error.hpp"

extern char** environ;

namespace cosched::launcher::slurm_detail {

namespace {

class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_{};
};

pid_t spawn(const std::vector<std::string>& argv, FileActions& actions) {
  std::vector<char*> args;
  for (const auto& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawnp(&pid, args[0], actions.get(), nullptr, args.data(), environ);
  if (error != 0) throw PlatformError("posix_spawnp", fmt::format("cannot run {}", argv[0]), error);
  return pid;
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      text.append(buffer, static_cast<std::size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      break;
    }
  }
  return text;
}

}  // namespace

pid_t spawn_logged(const std::vector<std::string>& argv, const std::filesystem::path& output) {
  FileActions actions;
  posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, output.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                   0644);
  posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);
  return spawn(argv, actions);
}

int wait_exit_code(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw PlatformError("waitpid", fmt::format("cannot wait for process {}", pid), errno);
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

std::string capture_output(const std::vector<std::string>& argv) {
  int out[2];
  int err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw PlatformError("pipe2", "cannot capture " + argv[0], errno);
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    throw PlatformError("pipe2", "cannot capture " + argv[0], errno);
  }
  FileActions actions;
  posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(actions.get(), out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(actions.get(), err[1], STDERR_FILENO);
  pid_t pid = -1;
  try {
    pid = spawn(argv, actions);
  } catch (...) {
    for (const int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
    throw;
  }
  ::close(out[1]);
  ::close(err[1]);
  // The error stream of a client command is short; read it after the output (no deadlock for these commands).
  const std::string text = read_all(out[0]);
  const std::string errors = read_all(err[0]);
  ::close(out[0]);
  ::close(err[0]);
  const int code = wait_exit_code(pid);
  if (code != 0) {
    const std::string first_line = errors.substr(0, errors.find('\n'));
    throw PlatformError(argv[0], fmt::format("{} exited with {}{}", argv[0], code,
                                             first_line.empty() ? std::string() : ": " + first_line));
  }
  return text;
}

}  // namespace cosched::launcher::slurm_detail
