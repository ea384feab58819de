#include "guest/guest_console.hpp"

#include <sstream>

namespace cosched::guest_testing {

Console parse_console(const std::string& text) {
  Console console;
  console.text = text;
  std::istringstream lines(text);
  std::string line, open;
  Section current;
  for (std::string raw; std::getline(lines, raw);) {
    line = raw;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // the serial console ends lines with \r\n
    if (line.rfind("@@begin ", 0) == 0) {
      open = line.substr(8);
      current = {};
    } else if (!open.empty() && line.rfind("@@end " + open + " rc=", 0) == 0) {
      current.rc = std::stoi(line.substr(line.find("rc=") + 3));
      console.sections[open] = current;
      open.clear();
    } else if (!open.empty()) {
      current.text += line + '\n';
    }
  }
  return console;
}

std::optional<nlohmann::json> find_json(const std::string& text, const std::string& key) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() != '{') continue;
    std::string document = line;
    if (line == "{") {  // pretty-printed: up to the closing line
      for (std::string next; std::getline(lines, next);) {
        document += '\n' + next;
        if (next == "}") break;
      }
    }
    const nlohmann::json json = nlohmann::json::parse(document, nullptr, false);
    if (json.is_object() && json.contains(key)) return json;
  }
  return std::nullopt;
}

}  // namespace cosched::guest_testing
