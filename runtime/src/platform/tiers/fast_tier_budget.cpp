#include "cosched/platform/fast_tier_budget.hpp"

#include <cassert>
#include <string>
#include <utility>

#include "cosched/common/error.hpp"

namespace cosched::platform {

namespace {

std::string mib(std::size_t bytes) {
  return std::to_string(bytes / (std::size_t{1} << 20)) + " MiB";
}

}  // namespace

FastTierBudget::FastTierBudget(std::size_t capacity_bytes, std::size_t chunk_count)
    : capacity_bytes_(capacity_bytes), chunk_count_(chunk_count), chunk_bytes_(0), usable_bytes_(0) {
  if (chunk_count == 0) throw UsageError("a fast-tier budget needs at least one chunk");
  if (capacity_bytes < chunk_count) {
    throw UsageError("fast-tier capacity of " + std::to_string(capacity_bytes) + " bytes cannot be split into " +
                     std::to_string(chunk_count) + " chunks");
  }
  chunk_bytes_ = capacity_bytes / chunk_count;
  usable_bytes_ = chunk_bytes_ * chunk_count;
}

std::size_t FastTierBudget::bytes_for(std::size_t chunks) const {
  if (chunks > chunk_count_) {
    throw ResourceError("requested " + std::to_string(chunks) + " fast-tier chunks, the tier has only " +
                        std::to_string(chunk_count_));
  }
  return chunks * chunk_bytes_;
}

std::size_t FastTierBudget::chunks_for(std::size_t bytes) const noexcept {
  return bytes / chunk_bytes_ + (bytes % chunk_bytes_ != 0 ? 1 : 0);
}

void FastTierBudget::acquire(std::size_t chunks) {
  if (chunks > chunk_count_ || !try_acquire(chunks)) {
    const std::size_t free = free_chunks();
    throw ResourceError("fast tier over-committed: requested " + std::to_string(chunks) + " chunks, " +
                        std::to_string(free) + " of " + std::to_string(chunk_count_) + " free (chunk = " +
                        mib(chunk_bytes_) + ")");
  }
}

bool FastTierBudget::try_acquire(std::size_t chunks) {
  if (chunks > chunk_count_) return false;
  const std::lock_guard lock(mutex_);
  return try_reserve_locked(chunks * chunk_bytes_);
}

void FastTierBudget::release(std::size_t chunks) { unreserve(bytes_for(chunks), "chunks"); }

void FastTierBudget::acquire_bytes(std::size_t bytes) {
  const std::lock_guard lock(mutex_);
  if (!try_reserve_locked(bytes)) {
    throw ResourceError("fast tier over-committed: requested " + mib(bytes) + " (" + std::to_string(bytes) +
                        " bytes), " + mib(usable_bytes_ - used_bytes_) + " free of " + mib(usable_bytes_) + " (" +
                        std::to_string(chunk_count_) + " chunks of " + mib(chunk_bytes_) + ")");
  }
}

void FastTierBudget::release_bytes(std::size_t bytes) { unreserve(bytes, "bytes"); }

std::size_t FastTierBudget::used_bytes() const {
  const std::lock_guard lock(mutex_);
  return used_bytes_;
}

std::size_t FastTierBudget::free_bytes() const {
  const std::lock_guard lock(mutex_);
  return usable_bytes_ - used_bytes_;
}

std::size_t FastTierBudget::free_chunks() const { return free_bytes() / chunk_bytes_; }

bool FastTierBudget::try_reserve_locked(std::size_t bytes) noexcept {
  if (bytes > usable_bytes_ - used_bytes_) return false;
  used_bytes_ += bytes;
  return true;
}

void FastTierBudget::unreserve(std::size_t bytes, const char* what) {
  const std::lock_guard lock(mutex_);
  if (bytes > used_bytes_) {
    // Returning more than was taken would let a later acquire over-commit: a caller bug worth stopping at.
    throw UsageError(std::string("fast-tier budget: released more ") + what + " than acquired (" +
                     std::to_string(bytes) + " bytes released, " + std::to_string(used_bytes_) + " in use)");
  }
  used_bytes_ -= bytes;
}

FastTierReservation::FastTierReservation(std::shared_ptr<FastTierBudget> budget, std::size_t bytes)
    : budget_(std::move(budget)), bytes_(bytes) {
  if (bytes_ == 0) return;
  assert(budget_ != nullptr);
  budget_->acquire_bytes(bytes_);
}

FastTierReservation::FastTierReservation(FastTierReservation&& other) noexcept
    : budget_(std::move(other.budget_)), bytes_(std::exchange(other.bytes_, 0)) {}

FastTierReservation& FastTierReservation::operator=(FastTierReservation&& other) noexcept {
  if (this != &other) {
    reset();
    budget_ = std::move(other.budget_);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

FastTierReservation::~FastTierReservation() { reset(); }

void FastTierReservation::resize(std::size_t bytes) {
  if (bytes == bytes_) return;
  if (budget_ == nullptr) {
    throw UsageError("a fast-tier reservation without a budget cannot grow to " + std::to_string(bytes) + " bytes");
  }
  if (bytes > bytes_) {
    budget_->acquire_bytes(bytes - bytes_);
  } else {
    budget_->release_bytes(bytes_ - bytes);
  }
  bytes_ = bytes;
}

void FastTierReservation::reset() noexcept {
  if (budget_ && bytes_ != 0) {
    // Cannot throw: this reservation took exactly these bytes, so giving them back always balances.
    try {
      budget_->release_bytes(bytes_);
    } catch (...) {
      assert(false && "fast-tier reservation released twice");
    }
  }
  budget_.reset();
  bytes_ = 0;
}

}  // namespace cosched::platform
