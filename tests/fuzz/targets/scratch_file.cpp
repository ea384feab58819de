#include "scratch_file.hpp"

#include <cstdio>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace cosched::fuzz {
namespace {

class ScratchFolder {
 public:
  ScratchFolder() {
    std::error_code error;
    const std::filesystem::path shm = "/dev/shm";
    const auto base = std::filesystem::is_directory(shm, error) ? shm : std::filesystem::temp_directory_path();
    path_ = base / ("cosched-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace

std::filesystem::path scratch_file(const std::string& name, std::string_view content) {
  static const ScratchFolder folder;
  const auto path = folder.path() / name;
  // The harness failing is not a parser finding, but it must not pass silently either.
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) throw std::runtime_error("fuzz harness: cannot create " + path.string());
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  if (std::fclose(file) != 0 || !written) throw std::runtime_error("fuzz harness: cannot write " + path.string());
  return path;
}

}  // namespace cosched::fuzz
