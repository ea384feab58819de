#pragma once
// A guest's console as the guest tests read it (tests/guest/guest_init.sh writes it): each check is a section
//   @@begin NAME / its output / @@end NAME rc=CODE t=UPTIME_S
// and a JSON document in a section is found by its first line that starts with '{'.
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace cosched::guest_testing {

struct Section {
  std::string text;
  int rc = -1;
};

struct Console {
  std::string text;                         // the whole console
  std::map<std::string, Section> sections;  // by name
};

[[nodiscard]] Console parse_console(const std::string& text);

// The first JSON object in `text` that starts a line and contains `key` at its top level (an object over several
// lines ends at the first line that is exactly "}"); nullopt when there is none.
[[nodiscard]] std::optional<nlohmann::json> find_json(const std::string& text, const std::string& key);

}  // namespace cosched::guest_testing
