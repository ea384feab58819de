#pragma once
// Plain child processes for the Slurm client commands (scontrol, srun): spawned with posix_spawnp (no shell, no
// binding — the command runs where the launcher runs; Slurm places the step), waited for by pid.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace cosched::launcher::slurm_detail {

// Starts argv[0] (looked up in PATH) with stdin from /dev/null and stdout + stderr appended to `output`.
// Throws PlatformError naming the command when it cannot be started.
[[nodiscard]] pid_t spawn_logged(const std::vector<std::string>& argv, const std::filesystem::path& output);

// Waits for `pid`: its exit code, or 128 + the signal that ended it.
[[nodiscard]] int wait_exit_code(pid_t pid);

// Runs argv and returns its standard output. Throws PlatformError when it cannot start or exits non-zero (with
// the first line of its standard error).
[[nodiscard]] std::string capture_output(const std::vector<std::string>& argv);

}  // namespace cosched::launcher::slurm_detail
