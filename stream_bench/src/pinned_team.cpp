#include "pinned_team.hpp"

#include <omp.h>

#include <algorithm>
#include <exception>

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"

namespace cosched::stream::detail {

std::vector<ThreadPlacement> run_pinned_team(const RunPlan& plan, const std::function<void(unsigned thread)>& body) {
  const auto threads = static_cast<unsigned>(plan.cores.size());
  std::vector<ThreadPlacement> placements(threads);
  std::vector<std::exception_ptr> errors(threads);
  std::vector<std::exception_ptr> late_errors(threads);  // after body: `errors` may still be read then
  int team_size = 0;

  // The caller's thread becomes OpenMP thread 0 and gets pinned; give it its own binding back afterwards.
  const std::vector<unsigned> caller_binding = platform::current_thread_binding();
  omp_set_dynamic(0);
#pragma omp parallel num_threads(threads) default(shared)
  {
    const auto thread = static_cast<unsigned>(omp_get_thread_num());
    try {
      platform::bind_current_thread(plan.core_pus[thread]);
      placements[thread] = {thread, plan.cores[thread], plan.core_pus[thread], platform::current_thread_binding(), 0};
    } catch (...) {
      errors[thread] = std::current_exception();
    }
#pragma omp barrier
    // Every thread reads the same errors and team size after the barrier, so all skip or all run body's barriers
    // (one barrier here, not a barrier and a single: each costs a wake-up when other processes want the cores).
    const bool abandon = omp_get_num_threads() != static_cast<int>(threads) ||
                         std::any_of(errors.begin(), errors.end(), [](const auto& e) { return e != nullptr; });
#pragma omp master
    team_size = omp_get_num_threads();
    if (!abandon) {
      body(thread);
      try {
        placements[thread].observed_pu = platform::current_pu();
      } catch (...) {
        late_errors[thread] = std::current_exception();
      }
    }
  }
  platform::bind_current_thread(caller_binding);
  for (const auto* list : {&errors, &late_errors}) {
    for (const std::exception_ptr& error : *list) {
      if (error) std::rethrow_exception(error);
    }
  }
  if (team_size != static_cast<int>(threads)) {
    throw ResourceError(fmt::format("OpenMP started {} threads instead of {} (OMP_THREAD_LIMIT?)", team_size,
                                    threads));
  }
  return placements;
}

}  // namespace cosched::stream::detail
