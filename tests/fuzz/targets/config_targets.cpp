// The node bandwidth model (node TOML): what the parser accepts, the writer must write (it re-checks every rule),
// and the written text must read back to the same model.
#include <stdexcept>
#include <string>

#include "cosched/config/node_model.hpp"
#include "targets.hpp"

namespace cosched::fuzz {

void node_toml(std::string_view input) {
  const config::NodeModel model = config::parse_node_toml(input, "node.toml");
  const std::string written = config::to_toml(model);
  try {
    if (config::parse_node_toml(written, "node.toml") == model) return;
  } catch (const Error& e) {
    throw std::logic_error(std::string("node_toml: the writer's output is refused: ") + e.what());
  }
  throw std::logic_error("node_toml: the writer's output does not read back to the model it was given");
}

}  // namespace cosched::fuzz
