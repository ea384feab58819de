#include "platform/tiers/page_mapping.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "cosched/common/error.hpp"

namespace cosched::platform::tiers {

namespace {

std::size_t round_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

PageMapping::PageMapping(std::size_t bytes) {
  if (bytes == 0) return;
  const std::size_t rounded = round_up(bytes, huge_page_bytes);
  // mmap only guarantees 4 KiB alignment: over-map by one huge page and trim both ends to a 2 MiB boundary.
  const std::size_t padded = rounded + huge_page_bytes;
  void* raw = mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    throw ResourceError("cannot map " + std::to_string(rounded) + " bytes for a tiered array: " +
                        std::string(std::strerror(errno)));
  }
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = round_up(start, huge_page_bytes);
  const std::size_t head = aligned - start;
  const std::size_t tail = padded - head - rounded;
  if (head != 0) munmap(raw, head);
  if (tail != 0) munmap(reinterpret_cast<void*>(aligned + rounded), tail);
  data_ = reinterpret_cast<void*>(aligned);
  bytes_ = rounded;
  // Advisory: without THP the mapping still works with 4 KiB pages, so a refusal is not an error.
  (void)madvise(data_, bytes_, MADV_HUGEPAGE);
}

PageMapping::PageMapping(PageMapping&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

PageMapping& PageMapping::operator=(PageMapping&& other) noexcept {
  if (this != &other) {
    unmap();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

PageMapping::~PageMapping() { unmap(); }

void PageMapping::unmap() noexcept {
  if (data_ != nullptr) munmap(data_, bytes_);
  data_ = nullptr;
  bytes_ = 0;
}

}  // namespace cosched::platform::tiers
