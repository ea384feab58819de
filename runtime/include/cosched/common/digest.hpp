#pragma once
// The digest cosched stamps files with (journal headers today; profile sidecars or node files may follow): FNV-1a,
// 64 bit, of a canonical text (for JSON: nlohmann's dump(), keys sorted, numbers in shortest round-trip form).
// Cheap, dependency-free, stable across runs and machines. It guards against mistakes, not against an adversary.
#include <cstdint>
#include <string>
#include <string_view>

namespace cosched {

// FNV-1a, 64 bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
[[nodiscard]] std::uint64_t fnv1a_64(std::string_view bytes) noexcept;

// "fnv1a64:" and the hash as 16 lowercase hex digits: the form written into files, naming its algorithm.
[[nodiscard]] std::string digest_text(std::string_view bytes);

}  // namespace cosched
