#pragma once
// Reading cosched's TOML files strictly: every key must be known (a typo is an error naming the key, the file and
// the line, never a silently ignored setting), every value must have the expected type, and every number must be
// finite and in range. toml++ stays behind this interface (a private dependency of cosched::config).
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/common/checked.hpp"

namespace cosched::config {

// One table of a parsed TOML document (the root, a [table] or one [[array]] entry). Cheap to copy: copies share
// the document.
class TomlTable {
 public:
  // Parses a file or a text; a syntax error becomes InputError("file:line:column", description).
  // `what` names the file in read errors ("platform file").
  [[nodiscard]] static TomlTable parse_file(const std::filesystem::path& path, const std::string& what);
  [[nodiscard]] static TomlTable parse(std::string_view text, const std::string& source);

  // "file:line" of this table, or of the value of `key` ("file" when there is no position).
  [[nodiscard]] std::string where() const;
  [[nodiscard]] std::string where(std::string_view key) const;
  // The key as messages show it: with the table's prefix, e.g. "fast_memory.chunks" or "tasks[2].count".
  [[nodiscard]] std::string name_of(std::string_view key) const;
  [[nodiscard]] const std::string& source() const noexcept;
  [[nodiscard]] bool contains(std::string_view key) const;
  [[nodiscard]] bool holds_string(std::string_view key) const;  // for keys that take a number or a word ("auto")
  [[nodiscard]] bool holds_array(std::string_view key) const;   // for keys that take a number or a list
  // The keys of this table, in key order (for tables whose keys are names, e.g. [pools.kernels.<kernel>]).
  [[nodiscard]] std::vector<std::string> keys() const;

  // Throws InputError naming the first key not in `allowed` (with its line) and listing the allowed keys.
  void allow_only(std::initializer_list<std::string_view> allowed) const;

  // Typed values: nullopt when the key is absent; InputError("file:line", "key '...' must be ...") for a wrong
  // type or a value outside its range (NaN and infinities are outside every range).
  [[nodiscard]] std::optional<std::string> string(std::string_view key) const;
  [[nodiscard]] std::optional<double> number(std::string_view key, const Range& range) const;
  [[nodiscard]] std::optional<std::int64_t> integer(std::string_view key, std::int64_t min, std::int64_t max) const;
  [[nodiscard]] std::optional<bool> boolean(std::string_view key) const;
  [[nodiscard]] std::optional<std::vector<std::string>> strings(std::string_view key) const;
  [[nodiscard]] std::optional<std::vector<double>> numbers(std::string_view key, const Range& range) const;
  // Counts: an array of integers in [0, max], or a string in the flag syntax of parse_count_list ("0..20").
  [[nodiscard]] std::optional<std::vector<unsigned>> counts(std::string_view key, unsigned max) const;
  // A sub-table [key] / the entries of an array of tables [[key]].
  [[nodiscard]] std::optional<TomlTable> table(std::string_view key) const;
  [[nodiscard]] std::optional<std::vector<TomlTable>> tables(std::string_view key) const;

 private:
  struct Node;
  TomlTable(std::shared_ptr<const Node> node, std::string prefix);
  std::shared_ptr<const Node> node_;
  std::string prefix_;  // "" at the root, "fast_memory." or "tasks[2]." below
};

// `text` as a TOML basic string: quotes, backslashes and every control character (DEL included, which a JSON string
// may hold raw but TOML may not) escaped; other bytes as they are (the readers accepted them as UTF-8). The one
// string writer of the TOML files cosched writes (platform, node).
[[nodiscard]] std::string toml_basic_string(std::string_view text);

}  // namespace cosched::config
