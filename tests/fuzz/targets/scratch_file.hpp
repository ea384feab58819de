#pragma once
// File-based parsers are fuzzed through a scratch folder of this process, in memory when /dev/shm exists
// (libFuzzer runs ~10^4 inputs a second; each one is written there). The folder is removed at exit.
#include <filesystem>
#include <string>
#include <string_view>

namespace cosched::fuzz {

// Writes `content` to <scratch folder>/`name` (replacing it) and returns its path. The extension of `name` is what
// parsers that dispatch on it see.
[[nodiscard]] std::filesystem::path scratch_file(const std::string& name, std::string_view content);

}  // namespace cosched::fuzz
