// The study's outputs: CSV rows for the plot script, and the tables docs/knowledge.md shows.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "knowledge_study/study.hpp"

namespace cosched::bench {

std::string strategy_csv(const std::vector<StrategyOutcome>& outcomes) {
  std::string text =
      "node,batch,strategy,runs,profiling_serial_s,profiling_packed_s,makespan_s,exhaustive_makespan_s,"
      "oracle_makespan_s,predicted_s,interval_low_s,interval_high_s,coverage,task_error\n";
  for (const StrategyOutcome& o : outcomes) {
    text += fmt::format("{},{},{},{},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.4f},{:.6g}\n", o.node,
                        o.batch, o.strategy, o.runs, o.profiling_serial, o.profiling_packed, o.makespan,
                        o.exhaustive_makespan, o.oracle_makespan, o.predicted, o.low, o.high, o.coverage,
                        o.task_error);
  }
  return text;
}

std::string algorithm_csv(const std::vector<AlgorithmOutcome>& outcomes) {
  std::string text = "node,batch,algorithm,makespan_s,lower_bound_s\n";
  for (const AlgorithmOutcome& o : outcomes) {
    text += fmt::format("{},{},{},{:.6g},{:.6g}\n", o.node, o.batch, o.algorithm, o.makespan, o.lower_bound);
  }
  return text;
}

namespace {

std::vector<std::string> nodes_in_order(const auto& outcomes) {
  std::vector<std::string> nodes;
  for (const auto& o : outcomes) {
    if (std::find(nodes.begin(), nodes.end(), o.node) == nodes.end()) nodes.push_back(o.node);
  }
  return nodes;
}

}  // namespace

std::string format_strategy_table(const std::vector<StrategyOutcome>& outcomes) {
  std::string text = fmt::format("{:<12} {:<11} {:>6} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}\n", "node",
                                 "strategy", "runs", "prof/mk", "packed/mk", "plan/exh", "worst", "plan/orc",
                                 "task err", "cover80");
  for (const std::string& node : nodes_in_order(outcomes)) {
    for (const std::string& strategy : study_strategies()) {
      double runs = 0, serial = 0, packed = 0, ratio = 0, worst = 0, oracle = 0, error = 0, coverage = 0;
      std::size_t count = 0;
      for (const StrategyOutcome& o : outcomes) {
        if (o.node != node || o.strategy != strategy) continue;
        ++count;
        runs += static_cast<double>(o.runs);
        serial += o.profiling_serial / o.makespan;
        packed += o.profiling_packed / o.makespan;
        ratio += o.makespan / o.exhaustive_makespan;
        worst = std::max(worst, o.makespan / o.exhaustive_makespan);
        oracle += o.makespan / o.oracle_makespan;
        error += o.task_error;
        coverage += o.coverage;
      }
      if (count == 0) continue;
      const double n = static_cast<double>(count);
      text += fmt::format("{:<12} {:<11} {:>6.0f} {:>8.1f}% {:>8.1f}% {:>9.3f} {:>9.3f} {:>9.3f} {:>7.1f}% {:>7.0f}%\n",
                          node, strategy, runs / n, 100 * serial / n, 100 * packed / n, ratio / n, worst, oracle / n,
                          100 * error / n, 100 * coverage / n);
    }
  }
  return text;
}

std::string format_algorithm_table(const std::vector<AlgorithmOutcome>& outcomes) {
  std::string text =
      fmt::format("{:<12} {:<13} {:>10} {:>14} {:>8}\n", "node", "algorithm", "mk/L_min", "mk/model-search", "worst");
  for (const std::string& node : nodes_in_order(outcomes)) {
    std::map<std::size_t, double> search;  // batch -> model-search's makespan
    std::vector<std::string> algorithms;
    for (const AlgorithmOutcome& o : outcomes) {
      if (o.node != node) continue;
      if (o.algorithm == "model-search") search[o.batch] = o.makespan;
      if (std::find(algorithms.begin(), algorithms.end(), o.algorithm) == algorithms.end()) {
        algorithms.push_back(o.algorithm);
      }
    }
    for (const std::string& algorithm : algorithms) {
      double bound = 0, relative = 0, worst = 0;
      std::size_t count = 0;
      for (const AlgorithmOutcome& o : outcomes) {
        if (o.node != node || o.algorithm != algorithm) continue;
        ++count;
        bound += o.makespan / o.lower_bound;
        relative += o.makespan / search.at(o.batch);
        worst = std::max(worst, o.makespan / search.at(o.batch));
      }
      const double n = static_cast<double>(count);
      text += fmt::format("{:<12} {:<13} {:>10.3f} {:>14.3f} {:>9.3f}\n", node, algorithm, bound / n, relative / n,
                          worst);
    }
  }
  return text;
}

}  // namespace cosched::bench
