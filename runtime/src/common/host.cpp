#include "cosched/common/host.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <system_error>


namespace cosched {

std::string host_name() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0') return "unknown";
  return std::string(name.data());
}

std::optional<std::filesystem::path> own_executable() {
  std::error_code error;
  auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  return self;
}

std::optional<double> load_average() {
  double load = 0.0;
  if (::getloadavg(&load, 1) != 1) return std::nullopt;
  return load;
}

}  // namespace cosched
