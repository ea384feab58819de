#pragma once
// OStrich (seed 002: Emeras, Pinheiro, Rządca, Trystram, "Fair scheduling for multiple submissions"; digest
// shared/docs/seed-digest/002.md §2.1–2.4): fairness between users by a virtual fair-share schedule V.
//
// V is fluid: each *active* user — one whose current V-campaign is unfinished — gets m/k̃ processors, k̃ the number
// of active users; a user who has submitted nothing (or whose work is done in V) gets no share. One V-campaign per
// user runs at a time. Its remaining work decreases by (m/k̃)·(t_e − t_{e−1}) between events (the digest's
// corrected update rule) and its virtual completion is C̃ = t_e + k̃·W̃/m.
//
// Campaigns online (Sec. VII, the general-jobs extension, digest §2.4): work a user submits while its current
// V-campaign runs forms the user's next campaign, which starts in V (is released) at that campaign's C̃; work
// submitted when the user has none running forms a new campaign at once, and work submitted at the very instant a
// campaign starts in V joins it (all jobs released together form one batch, r_l ≤ C̃_{i−1} joins batch i).
//
// Implementation: all running V-campaigns share t_e and k̃, so every one progresses by the same per-user service
// S(t) = ∫ m/k̃ dt. A campaign started at σ̃ with work W completes when S reaches its *level* L = S(σ̃) + W; then
// W̃ = L − S(now) and C̃ = now + k̃·(L − S)/m. Levels never change once set, so the order of virtual completions is
// the order of levels: a heap of levels gives the next virtual completion in O(log k) and no event rescales
// anything (the O(k) recomputation of every C̃ that the paper describes gives the same values). Campaigns already
// complete in V have levels ≤ S(now), below every running one: the level orders all started campaigns by C̃.
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "cosched/online/policy.hpp"

namespace cosched::online {

class VirtualSchedule {
 public:
  using Campaign = std::size_t;
  static constexpr Campaign kNone = std::numeric_limits<Campaign>::max();

  // m: the processors V shares (the capacity of the first resource). Users are dense indices 0, 1, ...
  explicit VirtualSchedule(double processors);

  // `work` (processor-seconds, > 0) submitted by `user` at `time`: V is advanced to `time` first (a time before
  // now() counts as now()). Returns the campaign the work joined (see the header comment).
  Campaign submit(std::size_t user, double work, double time);
  // Moves V to `time` (no-op when earlier than now()), processing the virtual completions up to it in time order;
  // each starts the user's next campaign, if one is forming, at that completion.
  void advance(double time);

  [[nodiscard]] double now() const noexcept { return now_; }
  [[nodiscard]] std::size_t active_users() const noexcept { return active_; }  // k̃
  // The next virtual completion, if any campaign runs in V.
  [[nodiscard]] std::optional<double> next_completion() const;
  // Whether some user has a campaign waiting for its current one to complete in V.
  [[nodiscard]] bool campaigns_forming() const noexcept { return forming_ > 0; }
  // Processor-seconds V has done since it began: its idle surface over [a, b] is m·(b − a) minus the difference.
  [[nodiscard]] double processed_work() const noexcept { return processed_; }

  [[nodiscard]] std::size_t campaigns() const noexcept { return campaigns_.size(); }
  [[nodiscard]] std::size_t user(Campaign c) const { return campaigns_.at(c).user; }
  [[nodiscard]] double work(Campaign c) const { return campaigns_.at(c).work; }
  // Started in V (σ̃ ≤ now): the strict eligibility of the real schedule.
  [[nodiscard]] bool started(Campaign c) const { return campaigns_.at(c).phase != Phase::forming; }
  [[nodiscard]] bool completed(Campaign c) const { return campaigns_.at(c).phase == Phase::completed; }
  // σ̃; +inf while forming.
  [[nodiscard]] double virtual_start(Campaign c) const { return campaigns_.at(c).start; }
  // C̃: final once completed; now + k̃·W̃/m while running; while forming, the provisional σ̃ + k̃·W/m with σ̃ the
  // current C̃ of the user's running campaign (k̃ as now: the paper's value at submission, Fig. 2).
  [[nodiscard]] double completion(Campaign c) const;
  // The level L of a started campaign (see the header comment): smaller level = smaller C̃. It only changes when
  // work joins the campaign at the instant it starts.
  [[nodiscard]] double level(Campaign c) const { return campaigns_.at(c).level; }
  // Campaigns started in V, or whose level changed, since the last call (what the real schedule must re-queue).
  [[nodiscard]] std::vector<Campaign> take_started();

 private:
  enum class Phase { forming, running, completed };
  struct CampaignState {
    std::size_t user = 0;
    double work = 0.0;
    Phase phase = Phase::forming;
    double start = std::numeric_limits<double>::infinity();
    double level = 0.0;
    double completion = std::numeric_limits<double>::infinity();
  };
  struct UserState {
    Campaign running = kNone;
    Campaign forming = kNone;
  };
  struct LevelEntry {
    double level;
    Campaign campaign;
    bool operator>(const LevelEntry& other) const {
      return level != other.level ? level > other.level : campaign > other.campaign;
    }
  };

  void start(Campaign c);
  void prune();  // drops stale entries from the top of running_
  [[nodiscard]] double time_to_reach(double level) const;  // from now_, at the current k̃

  double processors_;
  double now_ = 0.0;
  double service_ = 0.0;    // S(now_)
  double processed_ = 0.0;
  std::size_t active_ = 0;  // k̃
  std::size_t forming_ = 0;
  std::vector<CampaignState> campaigns_;
  std::vector<UserState> users_;
  std::vector<Campaign> started_;
  // Running campaigns by level; an entry whose level is no longer its campaign's is stale and skipped.
  std::priority_queue<LevelEntry, std::vector<LevelEntry>, std::greater<>> running_;
};

// The `ostrich` policy on `workload` (the registry's maker; tests may use it directly).
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_ostrich(const OnlineWorkload& workload);

}  // namespace cosched::online
