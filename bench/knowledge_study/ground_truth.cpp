#include "knowledge_study/ground_truth.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "cosched/sched/generator.hpp"

namespace cosched::bench {

namespace {

double log_uniform(sched::Random& random, double low, double high) {
  return low * std::exp(random.uniform01() * std::log(high / low));
}

}  // namespace

const std::vector<std::string>& truth_families() {
  static const std::vector<std::string> families{"paper-amdahl", "paper-power", "memory-bound", "mpi-like",
                                                 "dense-linear", "plateau",     "slowdown",     "cache-jump"};
  return families;
}

double TruthProgram::core_factor(int cores) const {
  const double p = cores;
  const auto amdahl = [&](double serial) { return serial + (1.0 - serial) / p; };
  if (family == "paper-amdahl" || family == "dense-linear") return amdahl(shape[0]);
  if (family == "paper-power") return std::pow(p, -shape[0]);
  if (family == "memory-bound") {  // shape: p_sat
    const double at = std::sqrt(1.0 / (p * p) + 1.0 / (shape[0] * shape[0]));
    return at / std::sqrt(1.0 + 1.0 / (shape[0] * shape[0]));
  }
  if (family == "mpi-like") return amdahl(shape[0]) + shape[1] * std::log2(p);  // serial, per doubling
  if (family == "plateau") return shape[0] + (1.0 - shape[0]) / std::min(p, shape[1]);  // serial, p0
  if (family == "slowdown") {  // serial, p0, and how much slower each p0 cores added make it than it was at p0
    const double at_p0 = shape[0] + (1.0 - shape[0]) / shape[1];
    return amdahl(shape[0]) + shape[2] * at_p0 * std::max(0.0, p - shape[1]) / shape[1];
  }
  if (family == "cache-jump") return amdahl(shape[0]) * (p >= shape[1] ? 0.6 : 1.0);  // serial, p_c
  throw std::logic_error("unknown family " + family);
}

double TruthProgram::seconds(int cores, int chunks, double work) const {
  const double effective = work + (warmup_factor - 1.0) * std::min(work, warmup_units);
  const double bound = bandwidth_share * cores / (cores + half_cores);
  const double in_fast = std::min(1.0, static_cast<double>(chunks) / chunks_needed);
  const double memory = 1.0 - bound * in_fast * (1.0 - 1.0 / 4.0);
  return fixed_seconds + unit_seconds * effective * core_factor(cores) * memory;
}

double TruthProgram::slow_memory_seconds(int cores, int chunks, double work) const {
  const double effective = work + (warmup_factor - 1.0) * std::min(work, warmup_units);
  const double bound = bandwidth_share * cores / (cores + half_cores);
  const double in_fast = std::min(1.0, static_cast<double>(chunks) / chunks_needed);
  return unit_seconds * effective * core_factor(cores) * bound * (1.0 - in_fast);
}

TruthProgram draw_program(const std::string& family, const knowledge::NodeShape& node, double production_work,
                          std::uint64_t seed) {
  sched::Random random(seed);
  TruthProgram program;
  program.family = family;
  program.fixed_seconds = log_uniform(random, 0.5, 3.0);
  program.unit_seconds = log_uniform(random, 300.0, 3000.0) / production_work;
  const double cores = node.cores;
  const auto paper = [&](sched::SpeedupLaw law) {
    return sched::draw_parameters(random, 1, sched::ProfileKind{law, sched::Combination::sum});
  };
  if (family == "paper-amdahl") {
    program.shape = {paper(sched::SpeedupLaw::amdahl).s0};
  } else if (family == "paper-power") {
    program.shape = {paper(sched::SpeedupLaw::power_law).alpha[0]};
  } else if (family == "memory-bound") {
    program.shape = {random.uniform_below(cores / 8.0, cores / 3.0)};
  } else if (family == "mpi-like") {
    program.shape = {random.uniform_below(0.005, 0.04), random.uniform_below(0.002, 0.01)};
  } else if (family == "dense-linear") {
    program.shape = {random.uniform_below(0.001, 0.01)};
  } else if (family == "plateau") {
    program.shape = {random.uniform_below(0.005, 0.03), std::round(random.uniform_below(cores / 8.0, cores / 2.0))};
  } else if (family == "slowdown") {
    program.shape = {random.uniform_below(0.005, 0.03), std::round(random.uniform_below(cores / 4.0, cores / 2.0)),
                     random.uniform_below(0.2, 1.0)};
  } else if (family == "cache-jump") {
    program.shape = {random.uniform_below(0.01, 0.05), std::round(random.uniform_below(cores / 8.0, cores / 2.0))};
  } else {
    throw std::logic_error("unknown family " + family);
  }
  program.bandwidth_share = family == "memory-bound"   ? random.uniform_below(0.7, 0.95)
                            : family == "dense-linear" ? random.uniform_below(0.05, 0.15)
                                                       : random.uniform_below(0.1, 0.6);
  program.half_cores = random.uniform_below(cores / 16.0, cores / 2.0);
  program.chunks_needed = std::max(1, static_cast<int>(std::round(random.uniform_below(0.25, 1.0) * node.fast_chunks)));
  if (random.uniform01() < 0.5) {
    program.warmup_units = 5.0;
    program.warmup_factor = random.uniform_below(1.5, 3.0);
  }
  return program;
}

double measure(const TruthProgram& program, const knowledge::PlannedRun& run, double noise,
               knowledge::NormalDraws& draws) {
  return program.seconds(run.cores, run.fast_chunks, run.work) * std::exp(noise * draws.next());
}

}  // namespace cosched::bench
