#pragma once
// The transformation strategy TF of Algorithm 2 (Sec. 4.3): a d-resource instance I becomes a 1-resource
// instance I' with capacity Q = lcm(P(1), ..., P(d)) and t_j'(q) = t_j((floor(q P(i) / Q))_i); a solution of I'
// maps back with the same start times and p_j = (floor(q_j' P(i) / Q))_i. I' is built in O(n) — its times are
// evaluated on demand (Q + 1 per task) through the original profiles, never copied.
#include <cstdint>
#include <vector>

#include "cosched/sched/model.hpp"

namespace cosched::sched {

// lcm of the capacities. Throws ResourceError when it does not fit in an int (Q is a capacity of I').
[[nodiscard]] int transform_capacity(const std::vector<int>& capacities);

// Step 1 of Algorithm 2. The single resource is named "transformed".
[[nodiscard]] Instance transform_to_single_resource(const Instance& instance);

// Step 3 of Algorithm 2: (floor(q P(i) / Q))_i.
[[nodiscard]] std::vector<int> transform_back(const std::vector<int>& capacities, int q, int Q);

}  // namespace cosched::sched
