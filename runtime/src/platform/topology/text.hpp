#pragma once
// Short human texts used in classification reasons.
#include <cstdint>
#include <string>
#include <vector>

namespace cosched::platform::topology_detail {

// "0-3,8,10-11" for an ascending list of indices.
[[nodiscard]] std::string describe_list(const std::vector<unsigned>& ascending);

// "15.7 GiB", "512.0 MiB".
[[nodiscard]] std::string describe_bytes(std::uint64_t bytes);

}  // namespace cosched::platform::topology_detail
