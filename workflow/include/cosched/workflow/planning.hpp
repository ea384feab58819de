#pragma once
// The offline scheduling pipelines: `cosched plan` (one instance, one algorithm or all of them, one node or a
// cluster plan folder), `cosched simulate` (the synthetic study of Sec. 5.4) and `cosched bsp-batch` (a BSP batch
// sampled from a trace). Each takes its options and a reporter (cosched/common/reporter.hpp); files are written
// whole or not at all.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/sched/algorithm.hpp"

namespace cosched::workflow {

struct PlanOptions {
  std::string instance;     // Instance JSON
  std::string algorithm;    // a registered algorithm, or "all" (the comparison table)
  std::string output = "-";  // the Schedule JSON ("-": stdout); with `nodes`, the plan folder
  bool force = false;       // replace an existing output
  std::size_t nodes = 0;    // 0: one node; N: a cluster plan folder (docs/cluster.md)
  bool lp_bound = false;    // solve the LP bound on sum w_j C_j beyond sched::kLpBoundMaxTasks tasks too
  sched::SearchLimits limits;  // for the algorithms that search (model-search); the others ignore it
  std::vector<std::string> skip;  // --algorithm all: the algorithms left out (--skip)
};

// Plans the instance: writes the schedule (or the plan folder), or reports the comparison of every algorithm
// row by row. Names and outputs are checked before the instance is read.
void run_plan(const PlanOptions& options, Reporter& reporter);

struct SimulateOptions {
  std::vector<int> resources{64, 32, 16, 8};
  std::size_t tasks = 150;
  std::size_t instances = 100;
  std::uint64_t seed = 1;
  std::vector<std::string> algorithms{"d-list-lpt", "t-list-lpt", "d-pack-ff", "t-pack-ff"};
  std::string profile;  // one of the six speedup profiles; empty: each task picks one
  bool json = false;    // the summary as JSON rather than as text
  std::string csv;      // one row per (instance, algorithm) to this file ("-": stdout); empty: none
  bool force = false;   // replace an existing csv
};

// The study: the summary reported as a result, the rows to `csv`.
void run_simulate(const SimulateOptions& options, Reporter& reporter);

struct BspBatchOptions {
  std::string trace;  // SWF (plain or gzip)
  int procs = 0;      // m
  std::size_t tasks = 0;
  std::uint64_t seed = 1;
  std::string output = "-";  // the Instance JSON ("-": stdout)
  bool force = false;
};

void run_bsp_batch(const BspBatchOptions& options);

}  // namespace cosched::workflow
