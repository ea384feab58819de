// libFuzzer entry point of one target, chosen at compile time (tests/fuzz/CMakeLists.txt: fuzz_<target>).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  cosched::fuzz::run_target(&cosched::fuzz::COSCHED_FUZZ_TARGET,
                            std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
