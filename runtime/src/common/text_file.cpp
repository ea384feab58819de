#include "cosched/common/text_file.hpp"

#include <fstream>
#include <sstream>

#include "cosched/common/error.hpp"

namespace cosched {

std::string read_text_file(const std::filesystem::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "cannot open " + what);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace cosched
