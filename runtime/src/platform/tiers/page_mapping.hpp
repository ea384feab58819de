#pragma once
// Anonymous memory mapped straight from the kernel, aligned to 2 MiB and advised for transparent huge pages, so
// streaming kernels see few TLB misses and a backend can mbind page ranges of it. Pages are not touched here:
// first touch by the caller's threads decides where unbound pages land.
#include <cstddef>

namespace cosched::platform::tiers {

inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

class PageMapping {
 public:
  PageMapping() = default;
  // Maps at least `bytes` (rounded up to whole 2 MiB); bytes == 0 maps nothing. Throws ResourceError when the
  // kernel refuses (the message carries the size).
  explicit PageMapping(std::size_t bytes);
  PageMapping(PageMapping&& other) noexcept;
  PageMapping& operator=(PageMapping&& other) noexcept;
  PageMapping(const PageMapping&) = delete;
  PageMapping& operator=(const PageMapping&) = delete;
  ~PageMapping();

  [[nodiscard]] void* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }

 private:
  void unmap() noexcept;

  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace cosched::platform::tiers
