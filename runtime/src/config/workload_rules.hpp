#pragma once
// Checks every workload reader applies to the fields it reads, so TOML, JSON and code say the same thing.
#include <string>
#include <vector>

namespace cosched::config::rules {

// A kernel name: an identifier (it becomes part of task ids and file names), and one of `known` when given.
void check_kernel_name(const std::string& kernel, const std::vector<std::string>& known, const std::string& where);

}  // namespace cosched::config::rules
