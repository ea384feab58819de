#pragma once
// The kernel's NUMA memory policies, by raw syscalls (libnuma's numaif.h predates MPOL_WEIGHTED_INTERLEAVE):
// reading a thread's policy back, asking where pages live, and the weights of weighted interleave.
//
// Weighted interleave (Linux >= 6.9, docs: Documentation/ABI/testing/sysfs-kernel-mm-mempolicy-weighted-interleave)
// interleaves a process's new pages over its nodemask in proportion to per-node weights. The weights are NOT part
// of the policy: they live in /sys/kernel/mm/mempolicy/weighted_interleave/nodeN, are integers 1..255, are
// writable by root only, and are shared by every process of the machine that uses the policy. Writing one switches
// the system to manual mode (the "auto" file). So a fraction f of fast pages is approximated by one weight pair
// (fast:slow), and two tasks that need different pairs cannot run at the same time: InterleaveWeightsLease refuses.
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cosched::platform {

// Linux's MPOL_WEIGHTED_INTERLEAVE (include/uapi/linux/mempolicy.h, 6.9); numaif.h stops at MPOL_PREFERRED_MANY.
inline constexpr int kMpolWeightedInterleave = 6;

struct MemoryPolicyState {
  int mode = 0;                 // MPOL_* of the calling thread
  std::vector<unsigned> nodes;  // its nodemask (empty for MPOL_DEFAULT)
};

// get_mempolicy(2) of the calling thread. Throws PlatformError.
[[nodiscard]] MemoryPolicyState current_memory_policy();
// "bind", "preferred", "weighted-interleave", ... for messages.
[[nodiscard]] std::string memory_policy_mode_name(int mode);

// The NUMA node of every page of [start, start + bytes) (move_pages(2) with no target: a query). A page not
// present gives a negative errno value. Throws PlatformError.
[[nodiscard]] std::vector<int> nodes_of_pages(const void* start, std::size_t bytes);

// ---- Weighted interleave weights (system-wide) ----

// The sysfs folder; absent on kernels without the policy.
[[nodiscard]] std::filesystem::path weighted_interleave_dir();
[[nodiscard]] bool weighted_interleave_available();
inline constexpr unsigned kMinInterleaveWeight = 1;
inline constexpr unsigned kMaxInterleaveWeight = 255;

// node -> weight.
using InterleaveWeights = std::map<unsigned, unsigned>;

// The weights that give the fast nodes a share of pages closest to `fast_fraction` (in (0, 1)), every fast node
// one weight, every slow node another, both in 1..255.
struct WeightedSplit {
  InterleaveWeights weights;
  double applied_fraction = 0.0;  // the fast share these weights give
};
[[nodiscard]] WeightedSplit weights_for_fraction(double fast_fraction, const std::vector<unsigned>& fast_nodes,
                                                 const std::vector<unsigned>& slow_nodes);

// The weights of `nodes` as sysfs has them now. Throws PlatformError when one cannot be read.
[[nodiscard]] InterleaveWeights read_interleave_weights(const std::vector<unsigned>& nodes);

// Holds a set of system-wide weights for as long as it lives. The first lease writes the weights that differ (root
// only: else ResourceError naming the files); further leases with the same weights share them; a lease for other
// weights while one is held throws ResourceError, since every task using the policy would get them. Weights are
// not restored afterwards (other processes may rely on them by then); the output of the caller says they changed.
class InterleaveWeightsLease {
 public:
  explicit InterleaveWeightsLease(const InterleaveWeights& weights);
  InterleaveWeightsLease(InterleaveWeightsLease&&) noexcept = default;
  InterleaveWeightsLease& operator=(InterleaveWeightsLease&&) noexcept = default;
  InterleaveWeightsLease(const InterleaveWeightsLease&) = delete;
  InterleaveWeightsLease& operator=(const InterleaveWeightsLease&) = delete;
  ~InterleaveWeightsLease();
  // True when this lease (or an earlier one with the same weights) wrote to sysfs.
  [[nodiscard]] bool changed_system_weights() const noexcept { return changed_; }

 private:
  std::unique_ptr<InterleaveWeights> held_;
  bool changed_ = false;
};

}  // namespace cosched::platform
