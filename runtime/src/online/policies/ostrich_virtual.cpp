// The virtual fair-share schedule V of OStrich (seed 002, Sec. IV.A; digest §2.1): see ostrich.hpp.
#include <algorithm>
#include <cassert>
#include <cmath>

#include "cosched/online/ostrich.hpp"

namespace cosched::online {

VirtualSchedule::VirtualSchedule(double processors) : processors_(processors) { assert(processors > 0.0); }

double VirtualSchedule::time_to_reach(double level) const {
  // Every running campaign is served m/k̃ processors: S rises by that much per second.
  return now_ + std::max(0.0, level - service_) * static_cast<double>(active_) / processors_;
}

std::optional<double> VirtualSchedule::next_completion() const {
  if (running_.empty()) return std::nullopt;
  return time_to_reach(running_.top().level);
}

void VirtualSchedule::start(Campaign c) {
  CampaignState& campaign = campaigns_[c];
  campaign.phase = Phase::running;
  campaign.start = now_;
  campaign.level = service_ + campaign.work;
  users_[campaign.user].running = c;
  running_.push({campaign.level, c});
  started_.push_back(c);
}

void VirtualSchedule::prune() {
  while (!running_.empty()) {
    const LevelEntry& top = running_.top();
    const CampaignState& campaign = campaigns_[top.campaign];
    if (campaign.phase == Phase::running && campaign.level == top.level) return;
    running_.pop();
  }
}

void VirtualSchedule::advance(double time) {
  if (!(time > now_)) return;
  // Virtual completions in time order: each one changes k̃, hence the speed of the others.
  while (!running_.empty()) {
    const LevelEntry top = running_.top();
    const double at = time_to_reach(top.level);
    if (at > time) break;
    running_.pop();
    processed_ += processors_ * (at - now_);
    now_ = at;
    service_ = std::max(service_, top.level);  // exactly the level: no drift between events
    CampaignState& campaign = campaigns_[top.campaign];
    campaign.phase = Phase::completed;
    campaign.completion = at;
    UserState& user = users_[campaign.user];
    user.running = kNone;
    if (user.forming != kNone) {
      const Campaign next = user.forming;
      user.forming = kNone;
      --forming_;
      start(next);  // the user stays active: k̃ unchanged
    } else {
      --active_;
    }
    prune();
  }
  if (active_ > 0) {
    service_ += processors_ / static_cast<double>(active_) * (time - now_);
    processed_ += processors_ * (time - now_);
  }
  now_ = time;
}

VirtualSchedule::Campaign VirtualSchedule::submit(std::size_t user_index, double work, double time) {
  assert(work > 0.0);
  advance(time);
  if (user_index >= users_.size()) users_.resize(user_index + 1);
  UserState& user = users_[user_index];
  if (user.running != kNone && campaigns_[user.running].start == now_) {
    // Released with the campaign that starts now: part of that batch.
    CampaignState& campaign = campaigns_[user.running];
    campaign.work += work;
    campaign.level += work;
    running_.push({campaign.level, user.running});
    prune();
    started_.push_back(user.running);
    return user.running;
  }
  if (user.running != kNone) {
    if (user.forming == kNone) {
      user.forming = campaigns_.size();
      campaigns_.push_back({user_index, 0.0});
      ++forming_;
    }
    campaigns_[user.forming].work += work;
    return user.forming;
  }
  const Campaign c = campaigns_.size();
  campaigns_.push_back({user_index, work});
  ++active_;
  start(c);
  return c;
}

double VirtualSchedule::completion(Campaign c) const {
  const CampaignState& campaign = campaigns_.at(c);
  switch (campaign.phase) {
    case Phase::completed:
      return campaign.completion;
    case Phase::running:
      return time_to_reach(campaign.level);
    case Phase::forming:
      break;
  }
  const double start = completion(users_[campaign.user].running);
  return start + static_cast<double>(active_) * campaign.work / processors_;
}

std::vector<VirtualSchedule::Campaign> VirtualSchedule::take_started() {
  std::vector<Campaign> started;
  started.swap(started_);
  return started;
}

}  // namespace cosched::online
