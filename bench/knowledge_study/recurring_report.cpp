// The recurring rows' outputs (recurring.hpp): a CSV row per batch and the table docs/knowledge.md shows.
#include <fmt/format.h>

#include <algorithm>

#include "knowledge_study/recurring.hpp"

namespace cosched::bench {

std::string recurring_csv(const std::vector<RecurringOutcome>& outcomes) {
  std::string text =
      "node,sequence,batch,row,tasks,new_kinds,naive,runs,profiling_serial_s,budget_s,explored,makespan_s,"
      "exhaustive_makespan_s,oracle_makespan_s,naive_makespan_s,naive_way,profiling_wall_s,most_stretch,"
      "peak_demand,relearnt,unexplored_makespan_s\n";
  for (const RecurringOutcome& o : outcomes) {
    text += fmt::format(
        "{},{},{},{},{},{},{},{},{:.6g},{:.6g},{},{:.6g},{:.6g},{:.6g},{:.6g},{},{:.6g},{:.6g},{:.6g},{},{:.6g}\n",
        o.node, o.sequence, o.batch, o.row, o.tasks, o.new_kinds, o.naive ? 1 : 0, o.runs, o.profiling_serial, o.budget,
        o.explored, o.makespan, o.exhaustive_makespan, o.oracle_makespan, o.naive_makespan, o.naive_way,
        o.profiling_wall, o.most_stretch, o.peak_demand, o.relearnt, o.unexplored_makespan);
  }
  return text;
}

std::string recurring_diagnosis_csv(const std::vector<RecurringOutcome>& outcomes) {
  // One table, three kinds of line (`what`): task, run, kind; the columns each leaves empty are blank.
  std::string text =
      "what,node,sequence,batch,kind,family,task,work,guessed,cores,chunks,predicted_s,truth_s,exhaustive_cores,"
      "exhaustive_chunks,exhaustive_truth_s,fit_at_exhaustive_s,start_s,seconds,used,makespan_s,exhaustive_makespan_s,"
      "all_exhaustive_makespan_s,counts_before,counts_planned,plan_on_fits_s,exhaustive_plan_on_fits_s,"
      "plan_on_expected_s,exhaustive_plan_on_expected_s,predicted_log_sd,fit_at_exhaustive_log_sd\n";
  for (const RecurringOutcome& o : outcomes) {
    const std::string head = fmt::format("{},{},{}", o.node, o.sequence, o.batch);
    const std::string on_fits = fmt::format("{:.6g},{:.6g},{:.6g},{:.6g}", o.plan_on_fits, o.exhaustive_plan_on_fits,
                                            o.plan_on_expected, o.exhaustive_plan_on_expected);
    for (const TaskDiagnosis& t : o.task_diagnosis) {
      text += fmt::format("task,{},{},{},{},{:.6g},{},{},{},{:.6g},{:.6g},{},{},{:.6g},{:.6g},{:.6g},,,{:.6g},{:.6g},"
                          "{:.6g},{},{},{},{:.6g},{:.6g}\n",
                          head, t.kind, t.family, t.task, t.work, t.guessed ? 1 : 0, t.cores, t.chunks, t.predicted,
                          t.truth, t.exhaustive_cores, t.exhaustive_chunks, t.exhaustive_truth, t.fit_at_exhaustive,
                          t.start, o.makespan, o.exhaustive_makespan, o.makespan_all_exhaustive, t.counts_before,
                          t.counts_planned, on_fits, t.predicted_log_sd, t.fit_at_exhaustive_log_sd);
    }
    for (const RunDiagnosis& r : o.profiling) {
      text += fmt::format("run,{},{},,,{:.6g},,{},{},,,,,,,,{:.6g},{},{:.6g},{:.6g},{:.6g},,,{},,\n", head, r.kind,
                          r.work, r.cores, r.chunks, r.seconds, r.used ? 1 : 0, o.makespan, o.exhaustive_makespan,
                          o.makespan_all_exhaustive, on_fits);
    }
    for (const KindDiagnosis& k : o.kinds) {
      text += fmt::format("kind,{},{},{},,,,,,,,,,,,,,,{:.6g},{:.6g},{:.6g},,,{},,\n", head, k.kind, k.family,
                          k.makespan_with_exhaustive, o.exhaustive_makespan, o.makespan_all_exhaustive, on_fits);
    }
  }
  return text;
}

std::string format_recurring_table(const std::vector<RecurringOutcome>& outcomes) {
  // prof/mk: the profiling's wall time (one run after the other but for the packed rows); ser/mk: the runs' sum.
  std::string text =
      fmt::format("{:<12} {:<17} {:>5} {:>5} {:>5} {:>5} {:>8} {:>8} {:>6} {:>8} {:>8} {:>9} {:>5} {:>7}\n", "node",
                  "row", "batch", "new", "runs", "expl", "prof/mk", "plan/exh", "worst", "plan/orc", "mk/naive",
                  "total/nv", "goal", "ser/mk");
  std::vector<std::string> nodes;
  std::size_t batches = 0;
  for (const RecurringOutcome& o : outcomes) {
    if (std::find(nodes.begin(), nodes.end(), o.node) == nodes.end()) nodes.push_back(o.node);
    batches = std::max(batches, o.batch + 1);
  }
  for (const std::string& node : nodes) {
    std::vector<std::string> rows = recurring_rows();
    rows.insert(rows.end(), recurring_extra_rows().begin(), recurring_extra_rows().end());
    for (const std::string& row : rows) {
      for (std::size_t b = 0; b < batches; ++b) {
        double count = 0, fresh = 0, runs = 0, explored = 0, profiling = 0, serial = 0, ratio = 0, worst = 0,
               oracle = 0, naive = 0, total = 0;
        std::size_t goal = 0;
        for (const RecurringOutcome& o : outcomes) {
          if (o.node != node || o.row != row || o.batch != b) continue;
          count += 1;
          fresh += static_cast<double>(o.new_kinds);
          runs += static_cast<double>(o.runs);
          explored += static_cast<double>(o.explored);
          profiling += o.profiling_wall / o.makespan;
          serial += o.profiling_serial / o.makespan;
          ratio += o.makespan / o.exhaustive_makespan;
          worst = std::max(worst, o.makespan / o.exhaustive_makespan);
          oracle += o.makespan / o.oracle_makespan;
          naive += o.makespan / o.naive_makespan;
          total += (o.makespan + o.profiling_wall) / o.naive_makespan;
          goal += o.profiling_wall <= 0.1 * o.makespan && o.makespan <= 1.03 * o.exhaustive_makespan ? 1 : 0;
        }
        if (count == 0) continue;
        text += fmt::format(
            "{:<12} {:<17} {:>5} {:>5.1f} {:>5.0f} {:>5.1f} {:>7.1f}% {:>8.3f} {:>6.3f} {:>8.3f} {:>8.3f} {:>9.3f} "
            "{:>2}/{:<2} {:>6.1f}%\n",
            node, row, b + 1, fresh / count, runs / count, explored / count, 100 * profiling / count, ratio / count,
            worst, oracle / count, naive / count, total / count, goal, static_cast<std::size_t>(count),
            100 * serial / count);
      }
    }
  }
  return text;
}

}  // namespace cosched::bench
