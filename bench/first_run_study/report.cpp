// first_run_study's outputs: one CSV row per batch, and the table docs/knowledge.md shows.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "first_run_study/first_run.hpp"

namespace cosched::bench {

std::string first_run_csv(const std::vector<FirstRunOutcome>& outcomes) {
  std::string text =
      "node,size,batch,tasks,kinds,naive_cores,naive_s,replan_s,best_naive_s,best_naive_way,oracle_s,widened,"
      "naive_idle_core_s,replan_idle_core_s,replans,replan_wall_s,longest_replan_wall_s,searches,search_evaluations,"
      "searches_stopped_by_budget,search_budget_ms,known_tasks,known_shift_s,known_seconds,unknown_tasks,"
      "unknown_shift_s,unknown_seconds\n";
  for (const FirstRunOutcome& o : outcomes) {
    text += fmt::format("{},{:g},{},{},{},{},{:.6g},{:.6g},{:.6g},{},{:.6g},{},", o.node, o.size, o.batch, o.tasks,
                        o.kinds, o.naive_cores, o.naive, o.replan, o.best_naive, o.best_naive_way, o.oracle,
                        o.widened);
    text += fmt::format("{:.6g},{:.6g},{},{:.4f},{:.4f},{},{},{},{:g},", o.naive_idle_core_s, o.replan_idle_core_s,
                        o.replans, o.replan_seconds, o.longest_replan_seconds, o.searches, o.search_evaluations,
                        o.searches_stopped_by_budget, o.search_budget_ms);
    text += fmt::format("{},{:.6g},{:.6g},{},{:.6g},{:.6g}\n", o.known_kind.tasks, o.known_kind.shift_s,
                        o.known_kind.seconds, o.unknown_kind.tasks, o.unknown_kind.shift_s, o.unknown_kind.seconds);
  }
  return text;
}

namespace {

// The mean and the largest of a ratio over batches.
struct Ratio {
  double sum = 0.0;
  double worst = 0.0;
  void add(double value) {
    sum += value;
    worst = std::max(worst, value);
  }
  [[nodiscard]] std::string cells(std::size_t count) const {
    return fmt::format("{:>7.3f} {:>7.3f}", sum / static_cast<double>(count), worst);
  }
};

// The (node, size) rows in the order they were run.
std::vector<std::pair<std::string, double>> rows_of(const std::vector<FirstRunOutcome>& outcomes) {
  std::vector<std::pair<std::string, double>> rows;
  for (const FirstRunOutcome& o : outcomes) {
    const std::pair row{o.node, o.size};
    if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
  }
  return rows;
}

}  // namespace

std::string format_first_run_table(const std::vector<FirstRunOutcome>& outcomes) {
  std::string text = fmt::format("{:<37} {:>15} {:>15} {:>15} {:>15}\n", "", "replan/naive", "replan/best",
                                 "naive/best", "replan/oracle");
  text += fmt::format("{:<12} {:>4} {:>5} {:>5} {:>7}", "node", "size", "tasks", "kinds", "batches");
  for (int ratio = 0; ratio < 4; ++ratio) text += fmt::format(" {:>7} {:>7}", "mean", "worst");
  text += fmt::format(" {:>6} {:>7} {:>8}\n", "worse", "replans", "plan s");
  for (const auto& [node, size] : rows_of(outcomes)) {
    Ratio by_naive, replan_by_best, naive_by_best, by_oracle;
    double tasks = 0, kinds = 0, replans = 0, seconds = 0;
    std::size_t count = 0, worse = 0;
    for (const FirstRunOutcome& o : outcomes) {
      if (o.node != node || o.size != size) continue;
      ++count;
      by_naive.add(o.replan / o.naive);
      replan_by_best.add(o.replan / o.best_naive);
      naive_by_best.add(o.naive / o.best_naive);
      by_oracle.add(o.replan / o.oracle);
      worse += o.replan > o.naive * 1.001 ? 1 : 0;
      tasks += static_cast<double>(o.tasks);
      kinds += static_cast<double>(o.kinds);
      replans += static_cast<double>(o.replans);
      seconds += o.replan_seconds;
    }
    const auto mean = [&](double total) { return total / static_cast<double>(count); };
    text += fmt::format("{:<12} {:>4g} {:>5.0f} {:>5.1f} {:>7} {} {} {} {} {:>6} {:>7.1f} {:>8.2f}\n", node, size,
                        mean(tasks), mean(kinds), count, by_naive.cells(count), replan_by_best.cells(count),
                        naive_by_best.cells(count), by_oracle.cells(count), worse, mean(replans), mean(seconds));
  }
  return text;
}

std::string format_start_shift_table(const std::vector<FirstRunOutcome>& outcomes) {
  std::string text = fmt::format("{:<12} {:>4} {:>23} {:>23} {:>15} {:>27}\n", "", "", "kind known at start",
                                 "kind guessed at start", "re-planned run", "re-plans' searches");
  text += fmt::format("{:<12} {:>4} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8} {:>9} {:>8}\n", "node",
                      "size", "tasks", "shift s", "dur s", "tasks", "shift s", "dur s", "wider", "idle", "searches",
                      "by budget", "cand.");
  for (const auto& [node, size] : rows_of(outcomes)) {
    StartShift known, guessed;
    std::size_t searches = 0, evaluations = 0, by_budget = 0;
    double widened = 0, idle = 0, core_s = 0;
    std::size_t batches = 0;
    for (const FirstRunOutcome& o : outcomes) {
      if (o.node != node || o.size != size) continue;
      ++batches;
      widened += static_cast<double>(o.widened);
      idle += o.replan_idle_core_s;
      core_s += o.cores * o.replan;
      for (const auto& [from, into] : {std::pair{&o.known_kind, &known}, std::pair{&o.unknown_kind, &guessed}}) {
        into->tasks += from->tasks;
        into->shift_s += from->shift_s;
        into->seconds += from->seconds;
      }
      searches += o.searches;
      evaluations += o.search_evaluations;
      by_budget += o.searches_stopped_by_budget;
    }
    const auto cells = [](const StartShift& shift) {
      if (shift.tasks == 0) return fmt::format("{:>7} {:>7} {:>7}", 0, "-", "-");
      const auto count = static_cast<double>(shift.tasks);
      return fmt::format("{:>7} {:>7.0f} {:>7.0f}", shift.tasks, shift.shift_s / count, shift.seconds / count);
    };
    text += fmt::format("{:<12} {:>4g} {} {} {:>7.1f} {:>6.1f}% {:>8} {:>9} {:>8}\n", node, size, cells(known),
                        cells(guessed), widened / static_cast<double>(batches), 100 * idle / core_s, searches, by_budget,
                        searches == 0 ? std::string("-")
                                      : fmt::format("{:.0f}", static_cast<double>(evaluations) /
                                                                  static_cast<double>(searches)));
  }
  return text;
}

}  // namespace cosched::bench
