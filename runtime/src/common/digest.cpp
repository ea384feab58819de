#include "cosched/common/digest.hpp"

#include <fmt/format.h>

namespace cosched {

std::uint64_t fnv1a_64(std::string_view bytes) noexcept {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char byte : bytes) {
    hash ^= static_cast<unsigned char>(byte);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string digest_text(std::string_view bytes) { return fmt::format("fnv1a64:{:016x}", fnv1a_64(bytes)); }

}  // namespace cosched
