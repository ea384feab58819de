#include "cosched/online/fair_share.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace cosched::online {

FairShareLedger::FairShareLedger(double half_life) : half_life_(half_life) { assert(half_life > 0.0); }

void FairShareLedger::add_user(const std::string& user) { usage_.try_emplace(user, 0.0); }

void FairShareLedger::advance(double now) {
  if (!(now > now_)) return;
  const double decay = std::exp2(-(now - now_) / half_life_);
  for (auto& [user, usage] : usage_) usage *= decay;
  total_ *= decay;
  now_ = now;
}

void FairShareLedger::charge(const std::string& user, double cores, double from, double to) {
  assert(from <= to && to <= now_);
  // The integral of cores x 2^(-(now - s)/h) over [from, to].
  const double scale = half_life_ / std::numbers::ln2;
  const double amount =
      cores * scale * (std::exp2(-(now_ - to) / half_life_) - std::exp2(-(now_ - from) / half_life_));
  if (!(amount > 0.0)) return;
  usage_[user] += amount;
  total_ += amount;
}

double FairShareLedger::usage(const std::string& user) const {
  const auto found = usage_.find(user);
  return found == usage_.end() ? 0.0 : found->second;
}

double FairShareLedger::share(const std::string& user) const {
  return usage_.contains(user) ? 1.0 / static_cast<double>(usage_.size()) : 0.0;
}

double FairShareLedger::factor(const std::string& user) const {
  const double shares = share(user);
  if (shares <= 0.0) return 0.0;
  const double normalised = total_ > 0.0 ? usage(user) / total_ : 0.0;
  return std::exp2(-normalised / shares);
}

}  // namespace cosched::online
