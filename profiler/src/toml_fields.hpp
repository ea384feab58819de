#pragma once
// Reading cosched TOML files strictly: every key must be known (a typo is an error naming the key, the file and
// the line, never a silently ignored setting), and every value must have the expected type.
#include <toml++/toml.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::profiler::toml_fields {

// Parses the file; a syntax error becomes InputError("file:line:column", description).
[[nodiscard]] toml::table parse_file(const std::filesystem::path& path);

// "file:line" of a node (or just "file" when the node has no source position).
[[nodiscard]] std::string where(const std::filesystem::path& path, const toml::node& node);

// Throws InputError naming the first key of `table` not in `allowed` (with its line) and listing the allowed keys.
// `context` prefixes the key ("" at top level, "fast_memory." inside a table).
void reject_unknown_keys(const toml::table& table, std::initializer_list<std::string_view> allowed,
                         const std::filesystem::path& path, std::string_view context = "");

[[nodiscard]] std::optional<std::string> get_string(const toml::table& table, std::string_view key,
                                                    const std::filesystem::path& path);
[[nodiscard]] std::optional<double> get_number(const toml::table& table, std::string_view key,
                                               const std::filesystem::path& path);
[[nodiscard]] std::optional<std::int64_t> get_integer(const toml::table& table, std::string_view key,
                                                      const std::filesystem::path& path);
[[nodiscard]] std::optional<std::vector<std::string>> get_string_list(const toml::table& table,
                                                                      std::string_view key,
                                                                      const std::filesystem::path& path);
[[nodiscard]] std::optional<std::vector<double>> get_number_list(const toml::table& table, std::string_view key,
                                                                 const std::filesystem::path& path);
// A count list: an array of non-negative integers, or a string in the flag syntax ("0..20", "1,2,4..8").
[[nodiscard]] std::optional<std::vector<unsigned>> get_count_list(const toml::table& table, std::string_view key,
                                                                  const std::filesystem::path& path);

}  // namespace cosched::profiler::toml_fields
