#pragma once
// The fair-share factor of Slurm's multifactor priority plugin, classic algorithm
// (https://slurm.schedmd.com/classic_fair_share.html), flat: every user who has submitted a job holds an equal
// share S = 1/k (k such users; a user who submits nothing holds none and dilutes nobody's share). A user's usage
// U_u is the first-resource time (processors x seconds) its jobs have run, each second's worth decaying by half
// every half-life (Slurm's PriorityDecayHalfLife, default 7 days): usage(t) = sum of cores x 2^(-(t - s)/h) ds over
// the time s its jobs ran. Normalised usage U = U_u / sum over users of U_v (0 while nobody has run anything), and
// the factor F = 2^(-U/S): 1 for a user who has used nothing, 1/2 for one who used exactly its share, towards 0
// for one who used everything. The `fairshare` policy (policies/fairshare.cpp) adds Slurm's age factor.
#include <cstddef>
#include <map>
#include <string>

namespace cosched::online {

inline constexpr double kFairShareHalfLife = 7.0 * 86400.0;

class FairShareLedger {
 public:
  explicit FairShareLedger(double half_life = kFairShareHalfLife);

  // `user` submitted a job: it holds a share from now on.
  void add_user(const std::string& user);
  // Moves the ledger's clock to `now` (never backwards), decaying every usage.
  void advance(double now);
  // `cores` ran for `user` from `from` to `to` (from <= to <= the ledger's time): adds that usage, decayed to now.
  void charge(const std::string& user, double cores, double from, double to);

  [[nodiscard]] double now() const noexcept { return now_; }
  [[nodiscard]] std::size_t users() const noexcept { return usage_.size(); }
  // The user's decayed usage (0 for a user without a share).
  [[nodiscard]] double usage(const std::string& user) const;
  // S: 1 / users() for a user who submitted, 0 otherwise.
  [[nodiscard]] double share(const std::string& user) const;
  // F = 2^(-U/S); 0 for a user without a share.
  [[nodiscard]] double factor(const std::string& user) const;

 private:
  double half_life_;
  double now_ = 0.0;
  double total_ = 0.0;
  std::map<std::string, double> usage_;
};

}  // namespace cosched::online
