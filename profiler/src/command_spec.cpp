#include "cosched/profiler/command_spec.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <utility>

#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"

namespace cosched::profiler {

std::vector<std::string> split_command_line(std::string_view line, const std::string& where) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::exchange(word, {}));
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const std::size_t end = line.find('\'', i + 1);
      if (end == std::string_view::npos) throw InputError(where, fmt::format("unterminated ' in command '{}'", line));
      word.append(line.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() && (line[j + 1] == '"' || line[j + 1] == '\\')) ++j;
        word.push_back(line[j]);
      }
      if (j >= line.size()) throw InputError(where, fmt::format("unterminated \" in command '{}'", line));
      i = j;
    } else if (c == '\\' && i + 1 < line.size()) {
      word.push_back(line[++i]);
    } else {
      word.push_back(c);
    }
  }
  if (in_word) words.push_back(word);
  if (words.empty()) throw InputError(where, "empty command");
  return words;
}

std::string default_command_name(const std::vector<std::string>& argv) {
  const std::string name = argv.empty() ? std::string() : std::filesystem::path(argv.front()).filename().string();
  return safe_identifier_from(name, "command");
}

}  // namespace cosched::profiler
