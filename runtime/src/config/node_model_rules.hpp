#pragma once
// The rules of a node model, applied once to a model however it was made: the TOML reader (which locates each key
// by file:line) and check_node_model (a model built in code, located by its source) share them.
#include <functional>
#include <string>
#include <string_view>

#include "cosched/config/node_model.hpp"

namespace cosched::config::node_rules {

// Where the key called `key` ("pools[1].cores", "provenance.date", "pools") is: "file:line" or the source.
using Locate = std::function<std::string(std::string_view key)>;

// Throws InputError(locate(key), ...) naming the key for the first rule `model` breaks (see parse_node_toml).
void check_model(const NodeModel& model, const Locate& locate);

}  // namespace cosched::config::node_rules
