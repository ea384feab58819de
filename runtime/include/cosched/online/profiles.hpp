#pragma once
// The time profiles of online jobs, analytic so that a trace of 20,000 jobs holds 20,000 small objects, not
// 20,000 tables. Each depends only on n, the units of the first resource (processors, or cores on a node), and
// ignores the others; n = 0 gives +inf (a job needs a processor). Each computes one value per n with one function,
// time_with(n), which both fill_times and time_at call, so the two agree bit for bit; each is non-increasing in n.
#include "cosched/sched/model.hpp"
#include "cosched/online/downey.hpp"

namespace cosched::online {

// The TimeProfile of a job whose time depends only on the first resource: Derived::time_with(n) gives it.
// Defined (and instantiated for the three profiles below) in profiles.cpp.
template <class Derived>
class FirstResourceProfile : public sched::TimeProfile {
 public:
  void fill_times(const sched::AllocationSpace& space, std::span<double> out) const final;
  [[nodiscard]] double time_at(const sched::AllocationSpace& space, std::span<const int> alloc) const final;
};

// A sequential job (seed 000, Sec. 2-4): `time` with one processor or more (extra ones do not help: the monotone
// closure of a job that only runs on one).
class SequentialProfile final : public FirstResourceProfile<SequentialProfile> {
 public:
  // Throws InputError unless time is finite and in (0, kMaxSeconds].
  explicit SequentialProfile(double time);
  [[nodiscard]] double time() const noexcept { return time_; }
  [[nodiscard]] double time_with(int processors) const noexcept;

 private:
  double time_;
};

// A rigid job of a trace: `time` on `procs` processors or more (the monotone closure), +inf below.
class RigidProfile final : public FirstResourceProfile<RigidProfile> {
 public:
  // Throws InputError unless procs >= 1 and time is finite and in (0, kMaxSeconds].
  RigidProfile(int procs, double time);
  [[nodiscard]] int procs() const noexcept { return procs_; }
  [[nodiscard]] double time() const noexcept { return time_; }
  [[nodiscard]] double time_with(int processors) const noexcept;

 private:
  int procs_;
  double time_;
};

// A moldable job of the Downey model (downey.hpp): p_{i,n} = p_{i,1} / S(n).
class DowneyProfile final : public FirstResourceProfile<DowneyProfile> {
 public:
  // Throws InputError for a sequential time that is not finite and > 0, or parameters check_downey_parameters
  // refuses.
  explicit DowneyProfile(const DowneyJob& job);
  [[nodiscard]] const DowneyJob& job() const noexcept { return job_; }
  [[nodiscard]] double time_with(int processors) const noexcept;

 private:
  DowneyJob job_;
};

extern template class FirstResourceProfile<SequentialProfile>;
extern template class FirstResourceProfile<RigidProfile>;
extern template class FirstResourceProfile<DowneyProfile>;

}  // namespace cosched::online
