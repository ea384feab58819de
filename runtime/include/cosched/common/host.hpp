#pragma once
// Facts about this host and this process, in one place: its name, the executable running, the load average.
#include <filesystem>
#include <optional>
#include <string>

namespace cosched {

// This machine's host name (gethostname); "unknown" when it cannot be read.
[[nodiscard]] std::string host_name();

// The executable of this process (/proc/self/exe); nullopt when it cannot be read (no /proc).
[[nodiscard]] std::optional<std::filesystem::path> own_executable();

// The 1-minute load average (getloadavg); nullopt when the system cannot say.
[[nodiscard]] std::optional<double> load_average();

}  // namespace cosched
