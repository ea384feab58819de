#include "cosched/config/count_list.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "cosched/common/error.hpp"

namespace cosched::config {
namespace {

unsigned parse_count(std::string_view text, std::string_view whole) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
    throw UsageError(fmt::format("'{}' in '{}' is not a non-negative integer", text, whole));
  }
  return value;
}

}  // namespace

std::vector<unsigned> parse_count_list(std::string_view text) {
  std::vector<unsigned> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    const std::size_t dots = item.find("..");
    if (dots == std::string_view::npos) {
      values.push_back(parse_count(item, text));
    } else {
      const unsigned first = parse_count(item.substr(0, dots), text);
      const unsigned last = parse_count(item.substr(dots + 2), text);
      if (last < first) throw UsageError(fmt::format("range '{}' in '{}' is empty", item, text));
      if (last - first > 1'000'000) throw UsageError(fmt::format("range '{}' is too long", item));
      for (std::uint64_t v = first; v <= last; ++v) values.push_back(static_cast<unsigned>(v));
    }
    if (values.size() > 1'000'000) throw UsageError(fmt::format("'{}' lists more than a million values", text));
    start = comma + 1;
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace cosched::config
