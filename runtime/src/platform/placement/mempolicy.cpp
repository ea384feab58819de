#include "cosched/platform/mempolicy.hpp"

#include <numaif.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>

#include "cosched/common/error.hpp"

namespace cosched::platform {

namespace {

constexpr std::size_t kMaskWords = 16;  // 1024 nodes, as the launcher's child

std::filesystem::path weight_file(unsigned node) { return weighted_interleave_dir() / fmt::format("node{}", node); }

// The weights every live lease holds, and how many leases hold them.
struct LeaseRegistry {
  std::mutex mutex;
  std::optional<InterleaveWeights> weights;
  unsigned holders = 0;
  bool changed = false;
};

LeaseRegistry& registry() {
  static LeaseRegistry instance;
  return instance;
}

void write_weight(unsigned node, unsigned weight) {
  const auto path = weight_file(node);
  std::ofstream out(path);
  out << weight << '\n';
  out.close();
  if (!out) {
    throw ResourceError(fmt::format("cannot set the weighted-interleave weight of node {} to {} ({}): the weights are "
                                    "system-wide and only root may write them",
                                    node, weight, path.string()));
  }
}

}  // namespace

MemoryPolicyState current_memory_policy() {
  std::array<unsigned long, kMaskWords> mask{};
  int mode = 0;
  if (::syscall(SYS_get_mempolicy, &mode, mask.data(), static_cast<unsigned long>(mask.size() * 64), nullptr, 0UL) !=
      0) {
    throw PlatformError("get_mempolicy", "cannot read the memory policy", errno);
  }
  MemoryPolicyState state;
  state.mode = mode;
  for (unsigned node = 0; node < mask.size() * 64; ++node) {
    if ((mask[node / 64] >> (node % 64)) & 1UL) state.nodes.push_back(node);
  }
  return state;
}

std::string memory_policy_mode_name(int mode) {
  switch (mode) {
    case MPOL_DEFAULT: return "default";
    case MPOL_PREFERRED: return "preferred";
    case MPOL_BIND: return "bind";
    case MPOL_INTERLEAVE: return "interleave";
    case MPOL_LOCAL: return "local";
    case MPOL_PREFERRED_MANY: return "preferred-many";
    case kMpolWeightedInterleave: return "weighted-interleave";
    default: return fmt::format("mode {}", mode);
  }
}

std::vector<int> nodes_of_pages(const void* start, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<std::uintptr_t>(start) / page * page;
  const auto end = reinterpret_cast<std::uintptr_t>(start) + bytes;
  std::vector<void*> pages;
  for (std::uintptr_t address = first; address < end; address += page) pages.push_back(reinterpret_cast<void*>(address));
  std::vector<int> status(pages.size(), 0);
  if (!pages.empty() &&
      ::syscall(SYS_move_pages, 0, static_cast<unsigned long>(pages.size()), pages.data(), nullptr, status.data(), 0) !=
          0) {
    throw PlatformError("move_pages", "cannot query the nodes of pages", errno);
  }
  return status;
}

std::filesystem::path weighted_interleave_dir() { return "/sys/kernel/mm/mempolicy/weighted_interleave"; }

bool weighted_interleave_available() {
  std::error_code error;
  return std::filesystem::is_directory(weighted_interleave_dir(), error);
}

WeightedSplit weights_for_fraction(double fast_fraction, const std::vector<unsigned>& fast_nodes,
                                   const std::vector<unsigned>& slow_nodes) {
  if (!(fast_fraction > 0.0 && fast_fraction < 1.0)) {
    throw UsageError(fmt::format("weighted interleave needs a fast fraction strictly between 0 and 1, got {}",
                                 fast_fraction));
  }
  if (fast_nodes.empty() || slow_nodes.empty()) {
    throw ResourceError("weighted interleave needs fast and slow NUMA nodes");
  }
  const double nf = static_cast<double>(fast_nodes.size());
  const double ns = static_cast<double>(slow_nodes.size());
  unsigned best_fast = 1, best_slow = 1;
  double best_error = 2.0;
  // Every pair: 255^2 candidates, microseconds. Smaller weights win ties (shorter runs on each node).
  for (unsigned slow = kMinInterleaveWeight; slow <= kMaxInterleaveWeight; ++slow) {
    for (unsigned fast = kMinInterleaveWeight; fast <= kMaxInterleaveWeight; ++fast) {
      const double share = nf * fast / (nf * fast + ns * slow);
      const double error = std::abs(share - fast_fraction);
      if (error < best_error - 1e-12) {
        best_error = error;
        best_fast = fast;
        best_slow = slow;
      }
    }
  }
  WeightedSplit split;
  for (unsigned node : fast_nodes) split.weights[node] = best_fast;
  for (unsigned node : slow_nodes) split.weights[node] = best_slow;
  split.applied_fraction = nf * best_fast / (nf * best_fast + ns * best_slow);
  return split;
}

InterleaveWeights read_interleave_weights(const std::vector<unsigned>& nodes) {
  InterleaveWeights weights;
  for (unsigned node : nodes) {
    std::ifstream in(weight_file(node));
    unsigned weight = 0;
    if (!(in >> weight)) {
      throw PlatformError("read", fmt::format("cannot read the weighted-interleave weight of node {} ({})", node,
                                              weight_file(node).string()));
    }
    weights[node] = weight;
  }
  return weights;
}

InterleaveWeightsLease::InterleaveWeightsLease(const InterleaveWeights& weights) {
  for (const auto& [node, weight] : weights) {
    if (weight < kMinInterleaveWeight || weight > kMaxInterleaveWeight) {
      throw UsageError(fmt::format("weighted-interleave weight {} of node {} outside {}..{}", weight, node,
                                   kMinInterleaveWeight, kMaxInterleaveWeight));
    }
  }
  if (!weighted_interleave_available()) {
    throw ResourceError(fmt::format("this kernel has no weighted interleave ({} is missing; Linux >= 6.9)",
                                    weighted_interleave_dir().string()));
  }
  LeaseRegistry& leases = registry();
  const std::lock_guard lock(leases.mutex);
  if (leases.holders > 0 && *leases.weights != weights) {
    throw ResourceError(fmt::format("weighted interleave: a running task holds the system-wide weights {} and this "
                                    "one needs {}; the weights are shared by the whole machine, so tasks that need "
                                    "different fractions cannot run at the same time",
                                    *leases.weights, weights));
  }
  if (leases.holders == 0) {
    std::vector<unsigned> nodes;
    for (const auto& entry : weights) nodes.push_back(entry.first);
    const InterleaveWeights now = read_interleave_weights(nodes);
    bool changed = false;
    for (const auto& [node, weight] : weights) {
      if (now.at(node) != weight) {
        write_weight(node, weight);
        changed = true;
      }
    }
    leases.weights = weights;
    leases.changed = changed;
  }
  ++leases.holders;
  changed_ = leases.changed;
  held_ = std::make_unique<InterleaveWeights>(weights);
}

InterleaveWeightsLease::~InterleaveWeightsLease() {
  if (!held_) return;  // moved from
  LeaseRegistry& leases = registry();
  const std::lock_guard lock(leases.mutex);
  if (leases.holders > 0 && --leases.holders == 0) leases.weights.reset();
}

}  // namespace cosched::platform
