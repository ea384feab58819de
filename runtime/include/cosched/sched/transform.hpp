#pragma once
// The transformation strategy TF of Algorithm 2 (Sec. 4.3): a d-resource instance I becomes a 1-resource
// instance I' with capacity Q = lcm(P(1), ..., P(d)) and t_j'(q) = t_j((floor(q P(i) / Q))_i); a solution of I'
// maps back with the same start times and p_j = (floor(q_j' P(i) / Q))_i. I' is built in O(n) — its times are
// evaluated on demand (Q + 1 per task) through the original profiles, never copied.
#include <cstdint>
#include <memory>
#include <vector>

#include "cosched/sched/model.hpp"

namespace cosched::sched {

// lcm of the capacities. Throws ResourceError when it does not fit in an int (Q is a capacity of I').
[[nodiscard]] int transform_capacity(const std::vector<int>& capacities);

// Step 1 of Algorithm 2. The single resource is named "transformed". Its tasks' profiles are those of
// transformed_profile, so transforming the same instance again shares the fronts found on the first I'.
[[nodiscard]] Instance transform_to_single_resource(const Instance& instance);

// t'(q) = t((floor(q P(i) / Q))_i) of `original` on `space` (capacities P): TF's profile of one task. The view made
// for the first space asked for is kept with the original profile, like TimeProfile::front, so every T-variant
// planning the tasks shares the view's Pareto front (four searches of the same front per instance otherwise);
// another space gets a view of its own, not kept. The result keeps `original` alive. Thread-safe.
[[nodiscard]] std::shared_ptr<const TimeProfile> transformed_profile(const std::shared_ptr<const TimeProfile>& original,
                                                                     const AllocationSpace& space);

// Step 3 of Algorithm 2: (floor(q P(i) / Q))_i.
[[nodiscard]] std::vector<int> transform_back(const std::vector<int>& capacities, int q, int Q);

}  // namespace cosched::sched
