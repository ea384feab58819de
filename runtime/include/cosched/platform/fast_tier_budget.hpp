#pragma once
// The fast tier as a schedulable resource: its capacity divided into a fixed number of equal chunks (20 by
// default, as in the core paper). The scheduler hands out whole chunks; backends that place fast bytes reserve
// exactly the bytes they place (page granularity), so the three arrays of one STREAM task do not each round up
// to a chunk. Both go through one byte counter, so neither path can over-commit the tier. Thread-safe: the
// launcher acquires and releases from several threads.
#include <cstddef>
#include <memory>
#include <mutex>

namespace cosched::platform {

class FastTierBudget {
 public:
  static constexpr std::size_t default_chunk_count = 20;

  // Throws UsageError when chunk_count is 0 or capacity_bytes cannot give every chunk at least one byte.
  explicit FastTierBudget(std::size_t capacity_bytes, std::size_t chunk_count = default_chunk_count);

  [[nodiscard]] std::size_t capacity_bytes() const noexcept { return capacity_bytes_; }
  [[nodiscard]] std::size_t chunk_count() const noexcept { return chunk_count_; }
  // capacity / chunk_count rounded down: chunk_count chunks never exceed the capacity.
  [[nodiscard]] std::size_t chunk_bytes() const noexcept { return chunk_bytes_; }
  [[nodiscard]] std::size_t bytes_for(std::size_t chunks) const;      // chunks * chunk_bytes
  [[nodiscard]] std::size_t chunks_for(std::size_t bytes) const noexcept;  // rounded up

  // Reserve / return whole chunks. acquire throws ResourceError naming requested vs free when they do not fit.
  void acquire(std::size_t chunks);
  [[nodiscard]] bool try_acquire(std::size_t chunks);
  void release(std::size_t chunks);

  // Reserve / return an exact byte count (what a backend places). Same over-commit rule as acquire.
  void acquire_bytes(std::size_t bytes);
  void release_bytes(std::size_t bytes);

  [[nodiscard]] std::size_t used_bytes() const;
  [[nodiscard]] std::size_t free_bytes() const;
  // Whole chunks that still fit (a byte reservation may leave part of a chunk in use).
  [[nodiscard]] std::size_t free_chunks() const;

 private:
  [[nodiscard]] bool try_reserve_locked(std::size_t bytes) noexcept;
  void unreserve(std::size_t bytes, const char* what);

  std::size_t capacity_bytes_;
  std::size_t chunk_count_;
  std::size_t chunk_bytes_;
  std::size_t usable_bytes_;  // chunk_count * chunk_bytes: the remainder of the division is never handed out
  mutable std::mutex mutex_;
  std::size_t used_bytes_ = 0;
};

// Holds a byte reservation on a budget and returns it on destruction (a TieredArray's owner keeps one).
class FastTierReservation {
 public:
  FastTierReservation() = default;
  // Reserves `bytes` (0 is allowed and reserves nothing); throws ResourceError when they do not fit.
  FastTierReservation(std::shared_ptr<FastTierBudget> budget, std::size_t bytes);
  FastTierReservation(FastTierReservation&& other) noexcept;
  FastTierReservation& operator=(FastTierReservation&& other) noexcept;
  FastTierReservation(const FastTierReservation&) = delete;
  FastTierReservation& operator=(const FastTierReservation&) = delete;
  ~FastTierReservation();

  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  // Grows or shrinks the reservation to `bytes`, taking or returning only the difference (so growing does not
  // need the old and new size free at once). Throws ResourceError, unchanged, when the growth does not fit;
  // UsageError when a reservation without a budget would have to grow.
  void resize(std::size_t bytes);

 private:
  void reset() noexcept;

  std::shared_ptr<FastTierBudget> budget_;
  std::size_t bytes_ = 0;
};

}  // namespace cosched::platform
