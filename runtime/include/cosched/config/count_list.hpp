#pragma once
// Lists of counts as people write them: the syntax of --cores / --chunks and of `cores = "1..64"` in sweep files.
#include <string_view>
#include <vector>

namespace cosched::config {

// "1,2,4..8,16" -> {1,2,4,5,6,7,8,16}; sorted, duplicates removed. Throws UsageError on bad syntax or more than a
// million values.
[[nodiscard]] std::vector<unsigned> parse_count_list(std::string_view text);

}  // namespace cosched::config
