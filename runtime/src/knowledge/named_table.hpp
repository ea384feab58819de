#pragma once
// The two registries of this library (speedup laws, measurement strategies) are tables of variants with a name():
// their names in table order, and the one of a name — an unknown name is a UsageError listing the known ones.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <string_view>
#include <vector>

#include "cosched/common/error.hpp"

namespace cosched::knowledge::detail {

template <class Variant>
std::vector<std::string> names_of(const std::vector<const Variant*>& table) {
  std::vector<std::string> names;
  for (const Variant* variant : table) names.emplace_back(variant->name());
  return names;
}

template <class Variant>
const Variant& find_named(const std::vector<const Variant*>& table, std::string_view name, std::string_view what) {
  for (const Variant* variant : table) {
    if (variant->name() == name) return *variant;
  }
  throw UsageError(fmt::format("unknown {} \"{}\" (known: {})", what, name, fmt::join(names_of(table), ", ")));
}

}  // namespace cosched::knowledge::detail
