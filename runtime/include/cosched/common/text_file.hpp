#pragma once
// Reading a whole text file (journals, profile CSVs) with one error that names the file and what it was for.
#include <filesystem>
#include <string>

namespace cosched {

// The file's bytes, unchanged. Throws InputError("<path>", "cannot open <what>") when it cannot be read.
[[nodiscard]] std::string read_text_file(const std::filesystem::path& path, const std::string& what);

}  // namespace cosched
