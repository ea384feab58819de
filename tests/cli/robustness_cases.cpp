// The rows of the robustness suite, class by class in the order of docs/errors.md. Every row is fast: nothing is
// measured (profiles use --measurer knl-model), and the one launch that succeeds (a resume row's setup) runs /bin/true.
#include "cli/robustness_cases.hpp"

#include "support/machine_xml.hpp"

namespace cosched::cli::robustness {
namespace {

// The fixture instance's resources: 2 cores, 2 fast chunks (times have 3 x 3 entries).
std::string instance_with(const std::string& tasks) {
  return R"({"resources":[{"name":"cores","capacity":2},{"name":"fast_chunks","capacity":2}],"tasks":[)" + tasks +
         "]}";
}
std::string task(const std::string& id, const std::string& time) {
  return R"({"id":")" + id + R"(","command":["/bin/true"],"times":[null,null,null,)" + time + "," + time + "," +
         time + ",0.005,0.005,0.005]}";
}
// Task "a" of the fixture with a "weight" (seed 001's sum w_j C_j).
std::string weighted_task(const std::string& weight) {
  std::string entry = task("a", "0.01");
  return entry.insert(entry.size() - 1, R"(,"weight":)" + weight);
}
// A schedule of the fixture tasks with these starts (and the instance's durations at alloc [1,0]).
std::string schedule_with(const std::string& algorithm, const std::string& start_a, const std::string& duration_a,
                          const std::string& id_b = "b") {
  return R"({"algorithm":")" + algorithm + R"(","tasks":[{"id":"a","alloc":[1,0],"start":)" + start_a +
         R"(,"duration":)" + duration_a + R"(},{"id":")" + id_b + R"(","alloc":[1,0],"start":0,"duration":0.01}]})";
}
std::string command_workload(const std::string& a_fields, const std::string& id_b = "b") {
  return R"({"tasks":[{"id":"a",)" + a_fields + R"(},{"id":")" + id_b + R"(","command":["/bin/true"]}]})";
}
const std::string kWorkloadA = R"("command":["/bin/true"])";

const std::string kTimeUtc = R"("time_utc":"2024-01-01T00:00:00.000000Z")";
std::string event(const std::string& kind, const std::string& fields = "") {
  return R"({"event":")" + kind + R"(",)" + kTimeUtc + (fields.empty() ? "" : "," + fields) + "}\n";
}
std::string start(const std::string& id, const std::string& extra = "") {
  return event("start", R"("task":")" + id + R"(","t":0)" + extra);
}
std::string end(const std::string& id, const std::string& status = "ok", const std::string& extra = "") {
  return event("end", R"("task":")" + id + R"(","t":1,"status":")" + status + "\"" + extra);
}
std::string batch_end(const std::string& extra = "") { return event("batch_end", R"("status":"ok")" + extra); }
const std::string kJournal = event("batch_start") + start("a") + end("a") + batch_end();

const std::string kCsvHeader = "kernel,footprint_bytes,cores,chunks,time_s,time_min_s,time_max_s,reps,gbs\n";
std::string csv_row(const std::string& kernel, const std::string& cores, const std::string& times,
                    const std::string& gbs = "7") {
  return kernel + ",16777216," + cores + ",0," + times + ",5," + gbs + "\n";
}
const std::string kProfileCsv = kCsvHeader + csv_row("triad", "1", "0.0024,0.0024,0.0024") +
                                csv_row("triad", "2", "0.0012,0.0012,0.0012", "14");
// The sidecar of a bad profile CSV named bad.csv.
const std::pair<std::string, std::string> kBadSidecar{"bad.json", R"({"chunk_bytes":33554432})"};
// The sidecar `cosched profile --measurer knl-model --platform plat.toml` writes, as far as --resume compares it.
const std::string kKnlSidecar =
    R"({"chunk_bytes":33554432,"measurer":"knl-model","tier_backend":"model","platform":{"name":"tiny"},)"
    R"("model":{"ddr_gbs":90.0,"mcdram_gbs":450.0,"name":"knl","per_core_gbs":7.0}})";
Files bad_profile(const std::string& rows) { return {{"bad.csv", kCsvHeader + rows}, kBadSidecar}; }

std::string platform(const std::string& top, const std::string& fast) {
  return top + "\ncores = 2\n[fast_memory]\ncapacity_mib = 64\n" + fast + "\n";
}
const std::string kPlatform = platform("name = \"tiny\"", "chunks = 2\ntier_backend = \"emulated\"");

// The commands the rows vary.
const std::string kPlan = "cosched plan --algorithm t-list-lpt --instance ";
const std::string kInstance = "cosched instance --platform plat.toml --profiles p.csv --workload ";
const std::string kInstanceFromProfile = "cosched instance --platform plat.toml --workload wl.toml --profiles ";
const std::string kProfile = "cosched profile --measurer knl-model --platform plat.toml --kernels triad --footprints-mib 16 ";
const std::string kLaunch = "cosched launch s.json --workload w.json --platform plat.toml --journal r.jsonl ";
const std::string kLaunchSchedule = "cosched launch --workload w.json --platform plat.toml --journal r.jsonl ";
const std::string kLaunchWorkload = "cosched launch s.json --platform plat.toml --journal r.jsonl --workload ";
const std::string kSimulate = "cosched simulate --tasks 2 --instances 1 ";
const std::string kResumeSetup = "cosched launch s.json --workload w.json --platform plat.toml --journal run.jsonl";
const std::string kResume = "cosched launch --resume run.jsonl ";

// Error classes of issue #9, in the order of the table in docs/errors.md.
const std::string kOverflow = "a number that overflows a double (1e999)";
const std::string kInfStart = "times so large that a start would become inf";
const std::string kPathKind = "a folder given for a file, or a file for a folder";
const std::string kJournalType = "a journal field of the wrong type";
const std::string kHugeCount = "a count too large to allocate (--reps 4000000000)";
const std::string kSimulateTasks = "simulate --tasks 1e11";
const std::string kEmulationRatio = "--emulation-ratio 1e9 (was a hang)";
const std::string kSimulateResources = "simulate --resources 1000000000 (was a hang)";
const std::string kFarStart = "a schedule start of 1e12 (was a hang)";
const std::string kFootprint = "a negative, NaN or infinite footprint";
const std::string kTimeOptions = "--timeout nan, --kill-grace -1";
const std::string kProfileTimes = "a profile CSV with a negative, zero or infinite time or an unknown kernel";
const std::string kDuplicates = "duplicate kernels, points or ids";
const std::string kPlaceholder = "an unknown {placeholder} in a command";
const std::string kCommandEnv = "a command's env that is not NAME: \"value\"";
const std::string kChunks = "launch --chunks 1000000000";
const std::string kEmptyId = "an empty task id";
const std::string kRatioAlone = "--emulation-ratio without the emulated backend";
const std::string kResumeMismatch = "--resume with another schedule, algorithm, workload or platform";
const std::string kJournalEvents = "report: an unknown status, a task never started, duplicate ends";
const std::string kFullDisk = "writing to a full disk (--output /dev/full, stdout to /dev/full)";
const std::string kOverwrite = "an existing output overwritten without --force (even the input)";
const std::string kParse = "command-line parse errors (CLI11)";
const std::string kUnsafeId = "a task id with ../ (ids name files)";
const std::string kOnline =
    "online: a malformed trace line, no job source or two, options a policy refuses, a bad --from date, "
    "--campaigns without --trace, the log's schedule of a workload without one";
const std::string kBsp =
    "BSP tasks: req or time_at_req out of range, both time models, a BSP algorithm on two resources, bsp-batch "
    "beyond the trace";

// A one-resource instance of 2 processors with one BSP task of these fields.
std::string bsp_instance_with(const std::string& fields) {
  return R"({"resources":[{"name":"procs","capacity":2}],"tasks":[{"id":"a",)" + fields + "}]}";
}
const std::string kOneJobSwf = "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n";
const std::string kCluster =
    "cluster: --nodes beyond the tasks or without --output DIR, a folder that is no plan, a node journal missing, "
    "--slurm outside an allocation, a bare --resume without --slurm";
const std::string kClusterPlan = "cosched plan --algorithm t-list-lpt --instance inst.json --nodes 2 --output plan";

const std::string kKernelTooSmall = "a footprint too small for the kernel's shape (a 3^3 grid, one spmv row)";
const std::string kWeight = "a task weight that is zero, negative, too large or not a number";
const std::string kCommandSweep =
    "a command sweep asked wrongly: kernels with commands, --name per --command, an unknown placement, an unterminated "
    "quote, a command task without a profile";

// Issue #27: what the hostile audit found after issue #9's classes were fixed, most serious first.
const std::string kTopologyXml =
    "untrusted topology XML: an object without complete_nodeset (crashed hwloc), 20,000 nested objects (overflowed "
    "its stack), a memory size or page count negative, huge or text, a page size of 0";
const std::string kTopo = "cosched topo --topology-xml bad.xml";
const std::string kEnvEquals = "an env name holding '=' ({\"A=B\": \"x\"} became A=\"B=x\")";
const std::string kPlanFiles =
    "slurm-script -o onto a file of the plan (its manifest, a node's schedule, cosched itself), even with --force";
const std::string kFirstPoint =
    "a profile whose first point fails: no header-only CSV, no sidecar, an old pair replaced with --force kept";
const std::string kMessages27 =
    "messages: 1e999 in a journal, an ESC or a NUL in an SWF line, SWF header values, an empty journal resumed, an "
    "option the online policy ignores, slurm-script --platform with a NaN capacity";
const std::string kChecksFirst =
    "checks before work: demo --stream-bench, demo --workload and run refuse bad input before any work or folder";
const std::string kChecksV4 =
    "issue 41: checks before work and of the right kind: a folder as a program, a footprint beyond this node's "
    "memory, a missing --node, a program name echoed bounded";
const std::string kOutputsV4 =
    "issue 41: all outputs of one command checked before any is written: two outputs naming one file";
const std::string kMessagesV4 =
    "issue 41: messages: options that do not apply to the mode asked, --seed -1, a topology XML without a NUMA node";
const std::string kDemoWorkload = "cosched demo --quick --workload ";
const std::string kRun = "cosched run --cache cache --node node.toml --platform plat.toml ";
// An SWF job line whose run time (field 4) is `run_time`.
std::string swf_job_with_run_time(const std::string& run_time) {
  return "1 0 0 " + run_time + " 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n";
}

const std::string kIdleWait =
    "a wait in range but absurd: a start or release_s of 1e9 s (was an idle wait until killed)";
const std::string kContainment = "an unknown process-tree containment";
const std::string kWarmUp = "an unknown memory warm-up mode";
// Issue 27's audit: checks before any folder (item 7's kind) in launch, not only in the demo.
const std::string kWiderThanNode = "a plan wider than this node: no log folder left";
// A platform of as many cores as a platform may have (4096): more than the machines the suite runs on.
const std::string kHugePlatform = "name = \"huge\"\ncores = 4096\n[fast_memory]\ncapacity_mib = 64\nchunks = 2\n";
// The fixture instance with task b released at `release` (an online node workload).
std::string released_instance(const std::string& release) {
  std::string b = task("b", "0.01");
  return instance_with(task("a", "0.01") + "," + b.insert(b.size() - 1, R"(,"release_s":)" + release));
}

std::vector<Case> make_cases() {
  const std::string far = schedule_with("t-list-lpt", "1e12", "0.01");
  return {
      // ---- user errors that used to be internal errors (exit 70) ----
      {kOverflow, kPlan + "big.json", 3, "1e999", {{"big.json", instance_with(task("a", "1e999"))}}},
      {kOverflow, kLaunchSchedule + "big.json", 3, "1e999", {{"big.json", schedule_with("x", "1e999", "0.01")}}},
      {kOverflow, kLaunchWorkload + "big.json", 3, "1e999",
       {{"big.json", command_workload(kWorkloadA + R"(,"timeout_s":1e999)")}}},
      {kOverflow, "cosched report big.jsonl", 3, "big.jsonl:2",
       {{"big.jsonl", event("batch_start") + start("a", R"(,"launch_overhead_s":1e999)")}}},
      {kOverflow, kInstance + "big.toml", 3, "big.toml", {{"big.toml", "[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 1e999\n"}}},
      {kOverflow, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile(csv_row("triad", "1", "1e999,1e999,1e999"))},
      {kOverflow, kInstanceFromProfile + "big.csv", 3, "big.json",
       {{"big.csv", kProfileCsv}, {"big.json", R"({"chunk_bytes":1e999})"}}},
      {kOverflow, "cosched profile --measurer knl-model --platform big.toml -o o.csv", 3, "big.toml",
       {{"big.toml", platform("", "capacity_gib = 1e999\nchunks = 2")}}},
      {kOverflow, kSimulate + "--seed 1e999", 2, "--seed"},
      {kOverflow, "stream_bench --size-mib 1e999", 2, "--size-mib"},
      {kInfStart, kPlan + "long.json", 3, "long.json",
       {{"long.json", instance_with(task("a", "6e8") + "," + task("b", "6e8"))}}},
      {kInfStart, kPlan + "long.json", 3, "long.json", {{"long.json", instance_with(task("a", "1e300"))}}},
      {kInfStart, kLaunchSchedule + "long.json", 3, "long.json", {{"long.json", schedule_with("x", "0", "1e300")}}},
      {kInfStart, "cosched launch s.json --workload w.json --platform plat.toml --instance long.json", 3, "long.json",
       {{"long.json", instance_with(task("a", "1e300") + "," + task("b", "0.01"))}}},
      // ---- a folder for a file, a file for a folder: every output and input option ----
      {kPathKind, kPlan + "inst.json --output out", 2, "out", {{"out/", ""}}},
      {kPathKind, kPlan + "inst.json --output missing/s.json", 2, "missing"},
      {kPathKind, kInstance + "wl.toml -o out", 2, "out", {{"out/", ""}}},
      {kPathKind, kSimulate + "--csv out", 2, "out", {{"out/", ""}}},
      {kPathKind, kProfile + "-o out", 2, "out", {{"out/", ""}}},
      {kPathKind, kProfile + "-o out.csv", 2, "out.json", {{"out.json/", ""}}},
      {kPathKind, kLaunch + "--log-dir w.json", 2, "--log-dir w.json"},
      {kPathKind, "cosched launch s.json --workload w.json --platform plat.toml --journal out", 2, "out",
       {{"out/", ""}}},
      {kPathKind, "cosched demo --output w.json", 2, "w.json"},
      {kPathKind, kPlan + "out", 3, "out", {{"out/", ""}}},
      {kPathKind, kLaunchSchedule + "out", 3, "out", {{"out/", ""}}},
      {kPathKind, kLaunchWorkload + "out", 3, "out", {{"out/", ""}}},
      {kPathKind, "cosched report out", 3, "out", {{"out/", ""}}},
      {kPathKind, "cosched topo --topology-xml out", 3, "out", {{"out/", ""}}},
      {kPathKind, kInstanceFromProfile + "out", 3, "out", {{"out/", ""}}},
      {kPathKind, "cosched instance --platform out --profiles p.csv --workload wl.toml", 3, "out", {{"out/", ""}}},
      {kPathKind, "cosched profile --config out -o o.csv", 3, "out", {{"out/", ""}}},
      {kPathKind, "cosched calibrate --output out", 2, "out", {{"out/", ""}}},
      {kPathKind, "cosched calibrate --output missing/node.toml", 2, "missing"},
      // ---- report: journal fields of the wrong type ----
      {kJournalType, "cosched report bad.jsonl", 3, "bad.jsonl:2",
       {{"bad.jsonl", event("batch_start") + event("start", R"("task":"a","t":"zero")")}}},
      {kJournalType, "cosched report bad.jsonl", 3, "bad.jsonl:2",
       {{"bad.jsonl", event("batch_start") + event("start", R"("task":5,"t":0)")}}},
      {kJournalType, "cosched report bad.jsonl", 3, "bad.jsonl:3",
       {{"bad.jsonl", event("batch_start") + start("a") + event("end", R"("task":"a","t":1,"status":1)")}}},
      {kJournalType, "cosched report bad.jsonl", 3, "bad.jsonl:1",
       {{"bad.jsonl", event("batch_start", R"("emulated":"yes")")}}},
      {kJournalType, "cosched report bad.jsonl", 3, "bad.jsonl:1",
       {{"bad.jsonl", event("batch_start", R"("resources":"cores")")}}},
      {kJournalType, "cosched report bad.jsonl", 3, "bad.jsonl:4",
       {{"bad.jsonl", event("batch_start") + start("a") + end("a") + batch_end(R"(,"tasks_completed":-1)")}}},
      {kJournalType, "cosched report bad.jsonl", 3, "bad.jsonl:1", {{"bad.jsonl", "[1,2]\n"}}},
      {kJournalType, "cosched report bad.jsonl", 3, "bad.jsonl:1", {{"bad.jsonl", event("lunch")}}},
      {kJournalType, "cosched report bad.jsonl", 3, "bad.jsonl:2",
       {{"bad.jsonl", event("batch_start") + start("a", R"(,"pid":-4)")}}},
      // ---- counts too large ----
      {kHugeCount, kProfile + "--reps 4000000000 -o o.csv", 2, "--reps"},
      {kHugeCount, kProfile + "--warmup 4000000000 -o o.csv", 2, "--warmup"},
      {kHugeCount, kProfile + "--passes 4000000000 -o o.csv", 2, "--passes"},
      {kHugeCount, "cosched profile --measurer process --kernels triad --footprints-mib 16 --passes 0 -o o.csv", 2,
       "--passes"},
      {kHugeCount, "stream_bench --reps 4000000000", 2, "--reps"},
      {kHugeCount, "stream_bench --warmup 4000000000", 2, "--warmup"},
      {kHugeCount, "cosched profile --config big.toml -o o.csv", 3, "big.toml",
       {{"big.toml", "model = \"knl\"\nkernels = [\"triad\"]\nfootprints_mib = [16]\nreps = 4000000000\n"}}},
      {kHugeCount, kInstance + "big.toml", 3, "big.toml",
       {{"big.toml", "[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 16\ncount = 4000000000\n"}}},
      {kHugeCount, kProfile + "--cores 1..1000000000 -o o.csv", 2, "1000000000"},
      {kHugeCount, "stream_bench --threads 1000000000", 4, "1000000000"},
      {kHugeCount, "stream_bench --threads -1", 2, "--threads"},
      {kHugeCount, "stream_bench --cores -1", 2, "--cores"},
      {kHugeCount, "cosched calibrate --reps 4000000000", 2, "--reps"},
      {kHugeCount, "cosched calibrate --rounds 4000000000", 2, "--rounds"},
      {kHugeCount, "cosched calibrate --cores 1..1000000000", 2, "--cores"},
      {kHugeCount, "cosched calibrate --cores 100000", 4, "--cores"},
      {kHugeCount, "cosched calibrate --size-mib 100000000", 4, "--size-mib"},
      {kSimulateTasks, "cosched simulate --tasks 1e11", 2, "--tasks"},
      {kSimulateTasks, "cosched simulate --instances 1e11", 2, "--instances"},
      {kSimulateTasks, "cosched simulate --tasks 0", 2, "--tasks"},
      {kSimulateTasks, "cosched simulate --tasks -1", 2, "--tasks"},
      // ---- what used to hang ----
      {kEmulationRatio, kProfile + "--tier-backend emulated --emulation-ratio 1e9 -o o.csv", 2, "--emulation-ratio"},
      {kEmulationRatio, "stream_bench --tier-backend emulated --fast-fraction 0.5 --emulation-ratio 1e9", 2,
       "--emulation-ratio"},
      {kEmulationRatio, "cosched instance --platform big.toml --profiles p.csv --workload wl.toml", 3, "big.toml",
       {{"big.toml", platform("", "chunks = 2\ntier_backend = \"emulated\"\nemulation_ratio = 1e9")}}},
      {kEmulationRatio, kProfile + "--tier-backend emulated --emulation-ratio nan -o o.csv", 2, "--emulation-ratio"},
      {kSimulateResources, kSimulate + "--resources 1000000000", 2, "--resources"},
      {kSimulateResources, kSimulate + "--resources 4096,4096,4096", 2, "2^24"},
      {kSimulateResources, kSimulate + "--resources 0", 2, "--resources"},
      {kSimulateResources, kPlan + "big.json", 3, "big.json",
       {{"big.json", R"({"resources":[{"name":"cores","capacity":1000000000}],"tasks":[]})"}}},
      {kSimulateResources, kPlan + "big.json", 4, "big.json",
       {{"big.json", R"({"resources":[{"name":"c","capacity":16777215},{"name":"f","capacity":16777215}],"tasks":[]})"}}},
      {kFarStart, kLaunchSchedule + "far.json", 3, "far.json", {{"far.json", far}}},
      {kFarStart, "cosched launch far.json --workload w.json --platform plat.toml --instance inst.json", 3, "far.json",
       {{"far.json", far}}},
      {kFarStart, kLaunchSchedule + "neg.json", 3, "neg.json", {{"neg.json", schedule_with("x", "-1", "0.01")}}},
      // ---- nonsense silently accepted ----
      {kFootprint, "cosched profile --measurer knl-model --footprints-mib -5 -o o.csv", 2, "--footprints-mib"},
      {kFootprint, "cosched profile --measurer knl-model --footprints-mib nan -o o.csv", 2, "--footprints-mib"},
      {kFootprint, "cosched profile --measurer knl-model --footprints-mib inf -o o.csv", 2, "--footprints-mib"},
      {kFootprint, "cosched profile --measurer knl-model --footprints-mib 0 -o o.csv", 2, "--footprints-mib"},
      {kFootprint, "cosched profile --measurer knl-model --footprints-percent-of-fast -5 -o o.csv", 2, "--footprints-percent"},
      {kFootprint, "cosched profile --measurer knl-model --footprints-percent-of-fast nan -o o.csv", 2, "--footprints-percent"},
      {kFootprint, kInstance + "bad.toml", 3, "bad.toml:3",
       {{"bad.toml", "[[tasks]]\nkernel = \"triad\"\nfootprint_mib = -5\n"}}},
      {kFootprint, kInstance + "bad.toml", 3, "bad.toml:3",
       {{"bad.toml", "[[tasks]]\nkernel = \"triad\"\nfootprint_mib = nan\n"}}},
      {kFootprint, kInstance + "bad.toml", 3, "bad.toml:3",
       {{"bad.toml", "[[tasks]]\nkernel = \"triad\"\nfootprint_mib = inf\n"}}},
      {kFootprint, kLaunchWorkload + "bad.json", 3, "bad.json",
       {{"bad.json", command_workload(R"("kernel":"triad","footprint_bytes":-1)")}}},
      {kFootprint, kLaunchWorkload + "bad.json", 3, "bad.json",
       {{"bad.json", command_workload(R"("kernel":"triad","footprint_bytes":1.5)")}}},
      {kFootprint, "cosched profile --config bad.toml -o o.csv", 3, "bad.toml",
       {{"bad.toml", "model = \"knl\"\nkernels = [\"triad\"]\nfootprints_mib = [-5]\n"}}},
      {kFootprint, "cosched calibrate --size-mib -5", 2, "--size-mib"},
      {kFootprint, "cosched calibrate --size-mib nan", 2, "--size-mib"},
      {kTimeOptions, kLaunch + "--timeout nan", 2, "--timeout"},
      {kTimeOptions, kLaunch + "--timeout inf", 2, "--timeout"},
      {kTimeOptions, kLaunch + "--timeout 0", 2, "--timeout"},
      {kTimeOptions, kLaunch + "--kill-grace -1", 2, "--kill-grace"},
      {kTimeOptions, kLaunch + "--kill-grace nan", 2, "--kill-grace"},
      {kTimeOptions, kLaunchWorkload + "bad.json", 3, "timeout_s",
       {{"bad.json", command_workload(kWorkloadA + R"(,"timeout_s":-1)")}}},
      {kTimeOptions, kLaunchWorkload + "bad.json", 3, "timeout_s",
       {{"bad.json", command_workload(kWorkloadA + R"(,"timeout_s":"soon")")}}},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile(csv_row("triad", "1", "-1,-1,-1"))},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile(csv_row("triad", "1", "0,0,0"))},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile(csv_row("triad", "1", "inf,inf,inf"))},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile(csv_row("triad", "1", "nan,nan,nan"))},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile(csv_row("triads", "1", "1,1,1"))},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile(csv_row("triad", "1", "1,2,1.5"))},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile(csv_row("triad", "0", "1,1,1"))},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile(csv_row("triad", "1", "1,1,1", "nan"))},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:2", bad_profile("triad,16777216,1,0,1,1,1,5\n")},
      {kProfileTimes, kInstanceFromProfile + "bad.csv", 3, "bad.csv:1",
       {{"bad.csv", "kernel,footprint,cores\n"}, kBadSidecar}},
      {kProfileTimes, kProfile + "-o bad.csv --resume", 3, "bad.csv:2",
       {{"bad.csv", kCsvHeader + csv_row("triad", "1", "-1,-1,-1")}, {"bad.json", kKnlSidecar}}},
      {kDuplicates, "cosched profile --measurer knl-model --kernels triad,triad --footprints-mib 16 -o o.csv", 2, "triad"},
      {kDuplicates, "cosched profile --measurer knl-model --kernels triads --footprints-mib 16 -o o.csv", 2, "triads"},
      {kDuplicates, "cosched profile --measurer knl-model --kernels triad --footprints-mib 16,16 -o o.csv", 2, "16"},
      {kDuplicates, "cosched calibrate --kernels triad,triad", 2, "triad"},
      {kDuplicates, kInstanceFromProfile + "p.csv,q.csv", 3, "q.csv:2",
       {{"q.csv", kProfileCsv}, {"q.json", R"({"chunk_bytes":33554432})"}}},
      {kDuplicates, kInstanceFromProfile + "bad.csv", 3, "bad.csv:3",
       bad_profile(csv_row("triad", "1", "1,1,1") + csv_row("triad", "1", "1,1,1"))},
      {kDuplicates, kLaunchWorkload + "bad.json", 3, "\"a\" appears twice", {{"bad.json", command_workload(kWorkloadA, "a")}}},
      {kDuplicates, kPlan + "bad.json", 3, "bad.json", {{"bad.json", instance_with(task("a", "1") + "," + task("a", "1"))}}},
      {kDuplicates, kLaunchSchedule + "bad.json", 3, "bad.json", {{"bad.json", schedule_with("x", "0", "0.01", "a")}}},
      {kPlaceholder, kLaunchWorkload + "bad.json", 3, "{thread}",
       {{"bad.json", command_workload(R"("command":["/bin/echo","{thread}"])")}}},
      {kPlaceholder, kLaunchWorkload + "bad.json", 3, "{CPUSET}",
       {{"bad.json", command_workload(R"("command":["/bin/echo","{CPUSET}"])")}}},
      {kCommandEnv, kLaunchWorkload + "bad.json", 3, "not NAME=VALUE with NAME a variable name",
       {{"bad.json", command_workload(R"("command":["/bin/echo"],"env":{"A-B":"1"})")}}},
      {kCommandEnv, kLaunchWorkload + "bad.json", 3, "\"env\".A must be a string",
       {{"bad.json", command_workload(R"("command":["/bin/echo"],"env":{"A":1})")}}},
      {kChunks, "cosched launch s.json --workload w.json --journal r.jsonl --chunks 1000000000", 2, "--chunks"},
      {kChunks, "cosched launch s.json --workload w.json --journal r.jsonl --chunks 0", 2, "--chunks"},
      {kChunks, "cosched launch s.json --workload w.json --journal r.jsonl --platform big.toml", 3, "big.toml",
       {{"big.toml", platform("", "chunks = 1000000000")}}},
      {kChunks, kProfile + "--chunks 0..1000000000 -o o.csv", 2, "1000000000"},
      {kEmptyId, kLaunchWorkload + "bad.json", 3, "bad.json", {{"bad.json", command_workload(kWorkloadA, "")}}},
      {kEmptyId, kPlan + "bad.json", 3, "bad.json", {{"bad.json", instance_with(task("", "1"))}}},
      {kEmptyId, kLaunchSchedule + "bad.json", 3, "bad.json", {{"bad.json", schedule_with("x", "0", "0.01", "")}}},
      {kEmptyId, kPlan + "bad.json", 3, "bad.json", {{"bad.json", R"({"resources":[{"name":"","capacity":2}],"tasks":[]})"}}},
      {kEmptyId, kInstance + "bad.toml", 3, "bad.toml", {{"bad.toml", "name = \"\"\n[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 16\n"}}},
      {kRatioAlone, "stream_bench --emulation-ratio 2", 2, "--emulation-ratio"},
      {kRatioAlone, kProfile + "--tier-backend none --emulation-ratio 2 -o o.csv", 2, "--emulation-ratio"},
      {kRatioAlone, kProfile + "--emulation-ratio 2 -o o.csv", 2, "--emulation-ratio"},
      // Likewise an option only another measurer takes: passes per timed task run (the process measurer).
      {kRatioAlone, kProfile + "--passes 3 -o o.csv", 2, "--passes"},
      {kRatioAlone, "cosched profile --measurer stream --kernels triad --footprints-mib 16 --passes 3 -o o.csv", 2,
       "--passes"},
      {kRatioAlone, "stream_bench --fast-fraction 0.5 --tier-backend none --emulation-ratio 2", 2, "--emulation-ratio"},
      // ---- resume that trusts the wrong journal ----
      {kResumeMismatch, kResume + "s2.json --workload w.json --platform plat.toml", 3, "schedule",
       {{"s2.json", schedule_with("t-list-lpt", "0.02", "0.01")}}, kResumeSetup},
      {kResumeMismatch, kResume + "s2.json --workload w.json --platform plat.toml", 3, "schedule",
       {{"s2.json", schedule_with("d-list-spt", "0", "0.01")}}, kResumeSetup},
      {kResumeMismatch, kResume + "s.json --workload w2.json --platform plat.toml", 3, "workload",
       {{"w2.json", command_workload(R"("command":["/bin/false"])")}}, kResumeSetup},
      {kResumeMismatch, kResume + "s.json --workload w.json --platform plat2.toml", 3, "platform", {}, kResumeSetup},
      {kResumeMismatch, kResume + "s.json --workload w.json --platform plat.toml --tier-backend none", 3, "platform", {},
       kResumeSetup},
      {kResumeMismatch, "cosched launch s.json --workload w.json --platform plat.toml --resume j.jsonl", 3, "j.jsonl"},
      {kResumeMismatch, "cosched launch s.json --workload w.json --platform plat.toml --resume none.jsonl", 2,
       "none.jsonl"},
      {kResumeMismatch, kResume + "s.json --workload w.json --platform plat.toml --force", 2, "--force", {},
       kResumeSetup},
      {kResumeMismatch, kResume + "s.json --workload w.json --platform plat.toml --journal other.jsonl", 2, "--resume",
       {}, kResumeSetup},
      {kJournalEvents, "cosched report bad.jsonl", 3, "bad.jsonl:3",
       {{"bad.jsonl", event("batch_start") + start("a") + end("a", "okay")}}},
      {kJournalEvents, "cosched report bad.jsonl", 3, "bad.jsonl:2", {{"bad.jsonl", event("batch_start") + end("a")}}},
      {kJournalEvents, "cosched report bad.jsonl", 3, "bad.jsonl:4",
       {{"bad.jsonl", event("batch_start") + start("a") + end("a") + end("a")}}},
      {kJournalEvents, "cosched report bad.jsonl", 3, "bad.jsonl:1", {{"bad.jsonl", start("a")}}},
      {kJournalEvents, "cosched report bad.jsonl", 3, "bad.jsonl:3",
       {{"bad.jsonl", event("batch_start") + batch_end() + start("a")}}},
      {kJournalEvents, "cosched report bad.jsonl", 3, "bad.jsonl:3",
       {{"bad.jsonl", event("batch_start") + start("a") + batch_end()}}},
      {kJournalEvents, "cosched report bad.jsonl", 3, "bad.jsonl:3",
       {{"bad.jsonl", event("batch_start") + start("a") + start("a")}}},
      {kJournalEvents, "cosched report bad.jsonl", 3, "bad.jsonl:6",
       {{"bad.jsonl", kJournal + event("batch_start") + start("a")}}},
      {kJournalEvents, "cosched report bad.jsonl", 3, "bad.jsonl", {{"bad.jsonl", ""}}},
      {kJournalEvents, "cosched report none.jsonl", 3, "none.jsonl"},
      // ---- output that lies ----
      {kFullDisk, kPlan + "inst.json --output /dev/full", 5, "/dev/full"},
      {kFullDisk, kInstance + "wl.toml -o /dev/full", 5, "/dev/full"},
      {kFullDisk, kSimulate + "--csv /dev/full", 5, "/dev/full"},
      {kFullDisk, kProfile + "-o /dev/full", 5, "/dev/full"},
      {kFullDisk, "cosched launch s.json --workload w.json --platform plat.toml --journal /dev/full", 5, "/dev/full"},
      {kFullDisk, kPlan + "inst.json >/dev/full", 5, "standard output"},
      {kFullDisk, "cosched plan --algorithm all --instance inst.json >/dev/full", 5, "standard output"},
      {kFullDisk, kInstance + "wl.toml >/dev/full", 5, "standard output"},
      {kFullDisk, kSimulate + ">/dev/full", 5, "standard output"},
      {kFullDisk, kSimulate + "--json >/dev/full", 5, "standard output"},
      {kFullDisk, kSimulate + "--csv - >/dev/full", 5, "standard output"},
      {kFullDisk, "cosched report j.jsonl >/dev/full", 5, "standard output"},
      {kFullDisk, "cosched report j.jsonl --json >/dev/full", 5, "standard output"},
      {kFullDisk, "cosched topo >/dev/full", 5, "standard output"},
      {kFullDisk, "cosched topo --json >/dev/full", 5, "standard output"},
      {kFullDisk, "cosched topo --platform-toml >/dev/full", 5, "standard output"},
      {kFullDisk, kLaunch + ">/dev/full", 5, "standard output"},
      {kFullDisk, "cosched --help >/dev/full", 5, "standard output"},
      {kFullDisk, "cosched --version >/dev/full", 5, "standard output"},
      {kFullDisk, "cosched plan --help >/dev/full", 5, "standard output"},
      {kFullDisk, "stream_bench --help >/dev/full", 5, "standard output"},
      {kFullDisk, "stream_bench --version >/dev/full", 5, "standard output"},
      {kFullDisk, "stream_bench --size-mib 1 --reps 1 --threads 1 >/dev/full", 5, "standard output"},
      {kFullDisk, "stream_bench --size-mib 1 --reps 1 --threads 1 --json >/dev/full", 5, "standard output"},
      // The one row that measures: 1 MiB arrays, one core, one round of one rep (milliseconds).
      {kFullDisk, "cosched calibrate --quiet --kernels write --size-mib 1 --cores 1 --rounds 1 --reps 1 -o /dev/full",
       5, "/dev/full"},
      {kOverwrite, kPlan + "inst.json --output s.json", 2, "--force"},
      {kOverwrite, kPlan + "inst.json --output inst.json", 2, "--force"},
      {kOverwrite, kInstance + "wl.toml -o inst.json", 2, "--force"},
      {kOverwrite, kSimulate + "--csv s.json", 2, "--force"},
      {kOverwrite, kProfile + "-o p.csv", 2, "--force"},
      {kOverwrite, "cosched launch s.json --workload w.json --platform plat.toml --journal j.jsonl", 2, "--force"},
      {kOverwrite, "cosched launch s.json --workload w.json --platform plat.toml --journal s.json", 2, "--force"},
      {kOverwrite, "cosched demo --output full", 2, "--force", {{"full/", ""}, {"full/x", "x"}}},
      {kOverwrite, "cosched calibrate --output p.csv", 2, "--force"},
      {kOverwrite, "cosched calibrate", 2, "--force", {{"node.toml", "format_version = 1\n"}}},
      // ---- exit codes: command-line parse errors are usage errors ----
      {kParse, "cosched", 2, "usage error"},
      {kParse, "cosched bogus", 2, "bogus"},
      {kParse, "cosched --bogus", 2, "--bogus"},
      {kParse, "cosched topo --bogus", 2, "--bogus"},
      {kParse, "cosched topo extra", 2, "extra"},
      {kParse, "cosched profile --measurer knl-model", 2, "--output"},
      {kParse, "cosched profile --measurer knl-model -o", 2, "-o"},
      {kParse, kProfile + "--reps abc -o o.csv", 2, "--reps"},
      {kParse, kProfile + "--cores abc -o o.csv", 2, "abc"},
      {kParse, kProfile + "--measurer xyz -o o.csv", 2, "--measurer"},
      {kParse, "cosched instance --profiles p.csv --workload wl.toml", 2, "--platform"},
      {kParse, "cosched plan --instance inst.json --algorithm", 2, "--algorithm"},
      {kParse, "cosched plan --algorithm nope --instance inst.json", 2, "nope"},
      {kParse, "cosched plan --instance inst.json --algorithm all --output x.json", 2, "--output"},
      {kParse, "cosched simulate --seed -1", 2, "--seed"},
      {kParse, "cosched simulate --resources a", 2, "--resources"},
      {kParse, kSimulate + "--profile bogus", 2, "bogus"},
      {kParse, kSimulate + "--algorithms nope", 2, "nope"},
      {kParse, "cosched launch", 2, "schedule"},
      {kParse, "cosched launch s.json", 2, "--workload"},
      {kParse, kLaunch + "--policy bogus", 2, "bogus"},
      {kParse, kLaunch + "--tier-backend bogus", 2, "bogus"},
      {kParse, kLaunch + "--policy pack", 2, "pack"},
      {kParse, "cosched report", 2, "journal"},
      {kParse, "cosched report j.jsonl extra", 2, "extra"},
      {kParse, "cosched demo --bogus", 2, "--bogus"},
      {kParse, "cosched demo --quick extra", 2, "extra"},
      {kParse, "cosched calibrate extra", 2, "extra"},
      {kParse, "cosched calibrate --kernels bogus", 2, "bogus"},
      {kParse, "cosched calibrate --tier-backend bogus", 2, "bogus"},
      {kParse, "cosched calibrate --cores abc", 2, "--cores"},
      {kParse, "cosched calibrate --reps abc", 2, "--reps"},
      {kParse, "stream_bench --bogus", 2, "--bogus"},
      {kParse, "stream_bench --kernel bogus", 2, "bogus"},
      {kParse, "stream_bench --threads abc", 2, "--threads"},
      {kParse, "stream_bench --stores bogus", 2, "bogus"},
      {kParse, "stream_bench --cores 1,x", 2, "--cores"},
      {kParse, "stream_bench --fast-fraction 2", 2, "--fast-fraction"},
      {kParse, "stream_bench --tier-backend bogus --fast-fraction 0.5", 2, "bogus"},
      {kParse, "cosched demo --algorithms bicriteria,d-list-fifo", 2, "unknown algorithm \"d-list-fifo\""},
      // ---- ids that would name files outside their folder ----
      {kUnsafeId, kLaunchWorkload + "bad.json", 3, "../evil", {{"bad.json", command_workload(kWorkloadA, "../evil")}}},
      {kUnsafeId, kPlan + "bad.json", 3, "../evil", {{"bad.json", instance_with(task("../evil", "1"))}}},
      {kUnsafeId, kLaunchSchedule + "bad.json", 3, "a/b", {{"bad.json", schedule_with("x", "0", "0.01", "a/b")}}},
      {kUnsafeId, kLaunchWorkload + "bad.json", 3, "a b", {{"bad.json", command_workload(kWorkloadA, "a b")}}},
      {kUnsafeId, kInstance + "bad.toml", 3, "../evil",
       {{"bad.toml", "name = \"../evil\"\n[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 16\n"}}},
      {kUnsafeId, "cosched instance --platform bad.toml --profiles p.csv --workload wl.toml", 3, "../evil",
       {{"bad.toml", platform("name = \"../evil\"", "chunks = 2")}}},
      // ---- online scheduling: traces, sources, policy options ----
      {kOnline, "cosched online --policy fcfs --trace bad.swf", 3, "bad.swf:3",
       {{"bad.swf", "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n2 5 0 ten 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"}}},
      {kOnline, "cosched online --policy fcfs --trace short.swf", 3, "short.swf:1",
       {{"short.swf", "1 0 0 10 1 -1 -1 1\n"}}},
      {kOnline, "cosched online --policy fcfs --trace missing.swf", 3, "missing.swf"},
      {kOnline, "cosched online --policy fcfs", 2, "exactly one"},
      {kOnline, "cosched online --policy fcfs --synthetic --trace t.swf", 2, "exactly one"},
      {kOnline, "cosched online --policy fcfs --synthetic --launch", 2, "--launch"},
      {kOnline, "cosched online --policy fcfs --synthetic --journal j2.jsonl", 2, "--launch"},
      {kOnline, "cosched online --policy bogus --synthetic --jobs 5", 2, "bogus"},
      {kOnline, "cosched online --policy split --rho 1 --synthetic --jobs 5", 2, "split"},
      {kOnline, "cosched online --policy dbos --rho 0.5 --synthetic --jobs 5", 2, "--rho"},
      {kOnline, "cosched online --policy fcfs-reservation --synthetic --jobs 5", 2, "reserve"},
      {kOnline, "cosched online --policy fcfs --synthetic --delta 0.5", 2, "--delta"},
      {kOnline, "cosched online --policy fcfs --workload w.json", 2, "Instance JSON"},
      {kOnline, "cosched online --policy fcfs --workload inst.json --procs 4", 2, "--procs"},
      {kOnline, "cosched online --policy fcfs --workload late.json", 3, "release_s",
       {{"late.json", R"({"resources":[{"name":"cores","capacity":2},{"name":"fast_chunks","capacity":2}],"tasks":[)"
                      R"({"id":"a","command":["/bin/true"],"release_s":-1,"times":[null,null,null,1,1,1,1,1,1]}]})"}}},
      {kOnline, "cosched online --policy fcfs --synthetic --jobs 5 --output inst.json", 2, "--force"},
      {kOnline, "cosched online --policy fcfs --trace one.swf --from 2004-13-01", 2, "--from",
       {{"one.swf", "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"}}},
      {kOnline, "cosched online --policy fcfs --trace one.swf --from 2005-01-24 --to 2004-12-06", 2, "--from",
       {{"one.swf", "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"}}},
      {kOnline, "cosched online --policy fcfs --trace one.swf --from 2004-12-06", 3, "UnixStartTime",
       {{"one.swf", "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"}}},
      {kOnline, "cosched online --policy fcfs --synthetic --jobs 5 --campaigns max", 2, "--trace"},
      {kOnline, "cosched online --policy fcfs --trace one.swf --campaigns sessions", 2, "sessions",
       {{"one.swf", "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"}}},
      {kOnline, "cosched online --policy logged --synthetic --delta 2 --load 0.5 --jobs 5 --seed 1", 2,
       "has no logged start"},
      // ---- moldable BSP tasks (seed 004) ----
      {kBsp, kPlan + "bad.json", 3, "\"req\"", {{"bad.json", bsp_instance_with(R"("req":3,"time_at_req":1)")}}},
      {kBsp, kPlan + "bad.json", 3, "\"time_at_req\"", {{"bad.json", bsp_instance_with(R"("req":2,"time_at_req":0)")}}},
      {kBsp, kPlan + "bad.json", 3, "\"req\" is missing", {{"bad.json", bsp_instance_with(R"("time_at_req":1)")}}},
      {kBsp, kPlan + "bad.json", 3, "both",
       {{"bad.json", bsp_instance_with(R"("req":2,"time_at_req":1,"times":[null,1,1])")}}},
      {kBsp, "cosched plan --algorithm bsp-a4 --instance inst.json", 2, "one resource"},
      {kBsp, "cosched bsp-batch --trace one.swf --procs 4 --tasks 2", 2, "--tasks 2", {{"one.swf", kOneJobSwf}}},
      {kBsp, "cosched bsp-batch --trace missing.swf --procs 4 --tasks 1", 3, "missing.swf"},
      {kBsp, "cosched bsp-batch --trace one.swf --procs 0 --tasks 1", 2, "--procs", {{"one.swf", kOneJobSwf}}},
      {kBsp, "cosched bsp-batch --trace one.swf --procs 4 --tasks 1 --output inst.json", 2, "--force",
       {{"one.swf", kOneJobSwf}}},
      // ---- cluster plans and Slurm (issue #15) ----
      {kCluster, "cosched plan --algorithm t-list-lpt --instance inst.json --nodes 3 --output plan", 2,
       "exceeds the instance's 2 tasks"},
      {kCluster, "cosched plan --algorithm t-list-lpt --instance inst.json --nodes 2", 2, "--output DIR"},
      {kCluster, "cosched plan --algorithm all --instance inst.json --nodes 2 --output plan", 2, "not all"},
      {kCluster, "cosched plan --algorithm t-list-lpt --instance inst.json --nodes 0 --output plan", 2, "--nodes"},
      {kCluster, "cosched plan --algorithm t-list-lpt --instance inst.json --nodes 2 --output s.json", 2, "is a file"},
      {kCluster, "cosched plan --algorithm t-list-lpt --instance inst.json --nodes 2 --output plan", 2,
       "already holds files", {}, kClusterPlan},
      {kCluster, "cosched report out", 3, "not a cluster plan folder", {{"out/", ""}}},
      {kCluster, "cosched launch out --slurm", 3, "not a cluster plan folder", {{"out/", ""}}},
      {kCluster, "cosched slurm-script out", 3, "not a cluster plan folder", {{"out/", ""}}},
      {kCluster, "cosched report plan", 3, "plan node 0 has no journal", {}, kClusterPlan},
      {kCluster, "cosched launch plan --slurm", 2, "SLURM_JOB_ID is not set", {}, kClusterPlan},
      {kCluster, "cosched launch plan --slurm --resume plan/node-000.journal.jsonl", 2, "bare flag", {}, kClusterPlan},
      {kCluster, "cosched launch plan --slurm --workload w.json", 2, "--workload", {}, kClusterPlan},
      {kCluster, "cosched launch s.json --workload w.json --platform plat.toml --resume", 2, "--resume needs"},
      {kCluster, "cosched launch s.json --platform plat.toml", 2, "--workload is required"},
      {kCluster, "cosched slurm-script plan --job-name ../x", 2, "--job-name", {}, kClusterPlan},
      {kCluster, "cosched slurm-script plan --margin nan", 2, "--margin", {}, kClusterPlan},
      // ---- kernels whose arrays a footprint must hold whole ----
      {kKernelTooSmall, "stream_bench --kernel stencil --size-mib 0.0001 --threads 1", 2, "3^3 grids"},
      {kKernelTooSmall, "stream_bench --kernel spmv --size-mib 0.00001 --threads 1", 2, "one row"},
      {kWeight, "cosched plan --algorithm bicriteria --instance bad.json", 3, R"(task "a": "weight")",
       {{"bad.json", instance_with(weighted_task("0"))}}},
      {kWeight, kPlan + "bad.json", 3, R"("weight" must be finite, > 0)", {{"bad.json", instance_with(weighted_task("-1"))}}},
      {kWeight, kPlan + "bad.json", 3, R"("weight")", {{"bad.json", instance_with(weighted_task("1e10"))}}},
      {kWeight, kPlan + "bad.json", 3, R"("weight")", {{"bad.json", instance_with(weighted_task(R"("heavy")"))}}},
      // ---- commands as profiled tasks ----
      // A profiled command that fails, hangs or is not found is not a row here: it must write its CSV row marked
      // failed, and every row here writes nothing. tests/profiler/command_profile_test.cpp (CommandFailure) checks
      // its exit code 6, its one stderr line and the row.
      {kCommandSweep, "cosched profile --command /bin/true --kernels triad -o o.csv", 2, "--kernels"},
      {kCommandSweep, "cosched profile --command /bin/true --name a --name b -o o.csv", 2, "--name"},
      {kCommandSweep, "cosched profile --command /bin/true --placement sideways -o o.csv", 2, "--placement"},
      {kCommandSweep, "cosched launch s.json --workload w.json --journal r.jsonl --placement sideways", 2, "--placement"},
      {kCommandSweep, "cosched profile --config bad.toml -o o.csv", 3, "unterminated",
       {{"bad.toml", "[[commands]]\ncommand = \"'unterminated\"\n"}}},
      {kCommandSweep, kInstance + "w.json", 3, "without \"profile\""},
      // ---- issue #27: untrusted hwloc XML ----
      {kTopologyXml, kTopo, 3, "bad.xml: hwloc crashed with signal",
       {{"bad.xml", test::machine_xml(R"(cpuset="0x1" complete_cpuset="0x1" nodeset="0x1" local_memory="1024")")}}},
      {kTopologyXml, kTopo, 3, "bad.xml:5: elements nested more than 64 deep",
       {{"bad.xml", test::machine_xml(test::kMachineXmlSets + R"( local_memory="1024")", test::nested_groups(20000))}}},
      {kTopologyXml, kTopo, 3, R"(bad.xml:6: <object> local_memory="-5")",
       {{"bad.xml", test::machine_xml(test::kMachineXmlSets + R"( local_memory="-5")")}}},
      {kTopologyXml, kTopo, 3, R"(local_memory="99999999999999999999")",
       {{"bad.xml", test::machine_xml(test::kMachineXmlSets + R"( local_memory="99999999999999999999")")}}},
      {kTopologyXml, kTopo, 3, R"(local_memory="lots")",
       {{"bad.xml", test::machine_xml(test::kMachineXmlSets + R"( local_memory="lots")")}}},
      {kTopologyXml, kTopo, 3, R"(<page_type> count="-1")",
       {{"bad.xml", test::machine_xml(test::kMachineXmlSets + R"( local_memory="1024")", "",
                                  R"(<page_type size="4096" count="-1"/>)")}}},
      {kTopologyXml, "cosched topo --json --topology-xml bad.xml", 3, "not well-formed",
       {{"bad.xml", test::machine_xml(test::kMachineXmlSets + R"( local_memory="1024)")}}},
      // ---- issue #27: data not what the file says ----
      {kEnvEquals, kLaunchWorkload + "bad.json", 3, R"(the name "A=B" holds '=', so the child would see A="B=x")",
       {{"bad.json", command_workload(R"("command":["/bin/echo"],"env":{"A=B":"x"})")}}},
      {kEnvEquals, "cosched profile --config bad.toml -o o.csv", 3, R"(the name "A=B" holds '=')",
       {{"bad.toml", "[[commands]]\ncommand = \"/bin/true\"\nenv = { \"A=B\" = \"x\" }\n"}}},
      {kPlanFiles, "cosched slurm-script plan -o plan/manifest.json --force", 2, "which the script's jobs use", {},
       kClusterPlan},
      {kPlanFiles, "cosched slurm-script plan -o plan/node-001.schedule.json --force", 2,
       "which the script's jobs use", {}, kClusterPlan},
      {kPlanFiles, "cosched slurm-script plan -o plan/./node-000.instance.json --force", 2,
       "which the script's jobs use", {}, kClusterPlan},
      {kPlanFiles, "cosched slurm-script plan --platform plat.toml -o plat.toml --force", 2,
       "which the script's jobs use", {}, kClusterPlan},
      // ---- issue #27: no half-written outputs ----
      {kFirstPoint,
       "cosched profile --measurer stream --platform plat.toml --kernels stencil --footprints-mib 0.0001 --cores 1 "
       "--chunks 0 --reps 1 -o p.csv --force",
       2, "stencil needs two 3^3 grids"},
      {kFirstPoint,
       "cosched profile --measurer stream --platform plat.toml --kernels stencil --footprints-mib 0.0001 --cores 1 "
       "--chunks 0 --reps 1 -o new.csv",
       2, "stencil needs two 3^3 grids"},
      // ---- issue #27: messages ----
      {kMessages27, "cosched report big.jsonl", 3, "big.jsonl:2: not valid JSON at byte",
       {{"big.jsonl", event("batch_start") + event("start", R"("task":"a","t":1e999)")}}},
      {kMessages27, "cosched report big.jsonl", 3, "number overflow parsing '1e999'",
       {{"big.jsonl", event("batch_start") + event("start", R"("task":"a","t":1e999)")}}},
      {kMessages27, "cosched online --policy fcfs --trace esc.swf", 3, R"(got "1\x1b[31m0")",
       {{"esc.swf", "; MaxProcs: 4\n" + swf_job_with_run_time("1\x1b[31m0")}}},
      {kMessages27, "cosched online --policy fcfs --trace nul.swf", 3, R"(got "1\x000")",
       {{"nul.swf", "; MaxProcs: 4\n" + swf_job_with_run_time(std::string("1\0" "0", 3))}}},
      {kMessages27, "cosched online --policy fcfs --trace lots.swf", 3, R"(lots.swf:1: header MaxProcs)",
       {{"lots.swf", "; MaxProcs: lots\n" + swf_job_with_run_time("10")}}},
      {kMessages27, "cosched online --policy fcfs --trace neg.swf", 3, R"(neg.swf:1: header MaxProcs)",
       {{"neg.swf", "; MaxProcs: -4\n" + swf_job_with_run_time("10")}}},
      {kMessages27, "cosched online --policy fcfs --trace y.swf --from 2004-12-06", 3,
       R"(y.swf:2: header UnixStartTime must be the trace's start in seconds since 1970 (UTC), an integer)",
       {{"y.swf", "; MaxProcs: 4\n; UnixStartTime: yesterday\n" + swf_job_with_run_time("10")}}},
      {kMessages27, "cosched launch --resume empty.jsonl s.json --workload w.json --platform plat.toml", 3,
       "empty.jsonl: is empty", {{"empty.jsonl", ""}}},
      {kMessages27, "cosched report empty.jsonl", 3, "empty.jsonl: is empty", {{"empty.jsonl", ""}}},
      {kMessages27, "cosched online --policy fcfs --reserve 3 --synthetic --jobs 5", 2,
       "--reserve is not an option of the policy fcfs"},
      {kMessages27, "cosched online --policy dbos --threshold 2 --synthetic --jobs 5", 2,
       "--threshold is not an option of the policy dbos"},
      {kMessages27, "cosched online --policy easy --rho 2 --synthetic --jobs 5", 2,
       "(the policies that read it: split, dbos)"},
      {kMessages27, "cosched slurm-script plan --platform nan.toml", 3, "nan.toml:3: key 'fast_memory.capacity_mib'",
       {{"nan.toml", "cores = 2\n[fast_memory]\ncapacity_mib = nan\nchunks = 2\n"}}, kClusterPlan},
      // ---- waits and process trees (issue 27) ----
      {kIdleWait, "cosched launch wait.json --workload w.json --platform plat.toml --journal r.jsonl", 3, "--max-wait",
       {{"wait.json", schedule_with("t-list-lpt", "1e9", "0.01")}}},
      {kIdleWait, "cosched online --policy fcfs --workload rel.json --launch --platform plat.toml --journal r.jsonl", 3,
       "--max-wait", {{"rel.json", released_instance("1e9")}}},
      {kIdleWait, kLaunch + "--max-wait 0", 2, "--max-wait"},
      {kIdleWait, kLaunch + "--max-wait nan", 2, "--max-wait"},
      {kContainment, kLaunch + "--containment jail", 2, "--containment"},
      {kWarmUp, kLaunch + "--memory-warm-up sometimes", 2, "--memory-warm-up"},
      {kWarmUp, kRun + "w.json --memory-warm-up sometimes", 2, "--memory-warm-up"},
      {kWarmUp, "cosched demo --quick --memory-warm-up sometimes", 2, "--memory-warm-up"},
      {kWiderThanNode, "cosched launch s.json --workload w.json --platform huge.toml --journal r.jsonl", 4,
       "this node has", {{"huge.toml", kHugePlatform}}},
      {kWiderThanNode, "cosched launch s.json --workload w.json --platform huge.toml --journal r.jsonl --log-dir logs",
       4, "this node has", {{"huge.toml", kHugePlatform}}},
      // ---- issue #27 item 7: was 2 s of work and a folder left behind, or an empty runs/ folder ----
      {kChecksFirst, "cosched demo --quick --stream-bench /no/such/path", 2, "--stream-bench /no/such/path"},
      {kChecksFirst, "cosched demo --quick --workload w.json --stream-bench /no/such/path", 2, "/no/such/path"},
      {kChecksFirst, kDemoWorkload + "broken.json", 3, "broken.json", {{"broken.json", R"({"tasks":[)"}}},
      {kChecksFirst, kDemoWorkload + "bad.json", 3, "/no/such/program",
       {{"bad.json", command_workload(R"("command":["/no/such/program"])")}}},
      {kChecksFirst, kDemoWorkload + "bad.json", 3, "bogus",
       {{"bad.json", command_workload(R"("command":["/bin/echo","{bogus}"])")}}},
      {kChecksFirst, kDemoWorkload + "bad.json", 3, "A=B",
       {{"bad.json", command_workload(R"("command":["/bin/true"],"env":{"A=B":"x"})")}}},
      {kChecksFirst, kDemoWorkload + "bad.json", 3, "bad.json", {{"bad.json", command_workload(kWorkloadA, "a")}}},
      {kChecksFirst, kDemoWorkload + "bad.json", 2, "STREAM",
       {{"bad.json", command_workload(R"("kernel":"triad","footprint_bytes":1048576)")}}},
      {kChecksFirst, kRun + "missing.json", 2, "missing.json"},
      {kChecksFirst, kRun + "bad.json", 3, "/no/such/program",
       {{"bad.json", command_workload(R"("command":["/no/such/program"])")}}},
      {kChecksFirst, kRun + "w.json --algorithm bogus", 2, "bogus"},
      {kChecksFirst, kRun + "w.json --output w.json", 2, "w.json"},
      {kChecksFirst, kRun + "w.json --resume", 2, "--resume"},
      // ---- issue 41: checks before work and of the right kind (a folder as a program was exit 6 after profiling,
      // a 2^50-byte footprint grew cosched until killed, a missing --node left the cache folder and its lock) ----
      {kChecksV4, kRun + "bad.json", 3, "./prog: is a folder, not a program",
       {{"prog/", ""}, {"bad.json", command_workload(R"("command":["./prog"])")}}},
      {kChecksV4, kDemoWorkload + "bad.json", 3, "is a folder", {{"prog/", ""}, {"bad.json", command_workload(R"("command":["./prog"])")}}},
      {kChecksV4, kRun + "bad.json", 4, "more than this node's memory",
       {{"bad.json", command_workload(R"("command":["/bin/true"],"footprint_bytes":1125899906842624)")}}},
      {kChecksV4, kDemoWorkload + "bad.json", 4, "more than this node's memory",
       {{"bad.json", command_workload(R"("command":["/bin/true"],"footprint_bytes":1125899906842624)")}}},
      {kChecksV4, kRun + "w.json", 3, "node.toml: no node file here"},
      {kChecksV4, kRun + "bad.json", 3, " bytes ...]",
       {{"bad.json", command_workload(R"("command":["/)" + std::string(1'000'000, 'x') + R"("])")}}},
      // ---- issue 41: all outputs of one command checked before any is written (X was written, then refused) ----
      {kOutputsV4, "cosched online --policy fcfs --synthetic --jobs 5 --jobs-out x.csv --swf-out x.csv", 2,
       "x.csv is named for both the jobs CSV and the SWF schedule"},
      {kOutputsV4, "cosched online --policy fcfs --synthetic --jobs 5 --jobs-out x.csv --swf-out ./sub/../x.csv", 2,
       "named for both", {{"sub/", ""}}},
      {kOutputsV4, "cosched online --policy fcfs --synthetic --jobs 5 --output - --jobs-out -", 2, "named for both"},
      // profile -o q.json: the CSV's sidecar is q.json too; it replaced the CSV, exit 0
      {kOutputsV4, "cosched profile --measurer knl-model --platform plat.toml --kernels triad --footprints-mib 16 -o q.json",
       2, "q.json is named for both the profile CSV and the profile sidecar"},
      {kOutputsV4, "cosched online --policy fcfs --synthetic --jobs 5 --output x.json --jobs-out x.json --force", 2,
       "named for both"},
      // ---- issue 41: options that do not apply are refused, not ignored; one seed rule; no hwloc line first ----
      {kMessagesV4, "cosched online --policy fcfs --synthetic --jobs 5 --max-wait 10", 2,
       "--max-wait: only for a run on this node: add --launch"},
      {kMessagesV4, "cosched online --policy fcfs --synthetic --jobs 5 --containment process-group --kill-grace 1", 2,
       "--containment, --kill-grace: only for a run on this node"},
      {kMessagesV4, "cosched calibrate --tolerance 0.1 --output n.toml", 2, "--tolerance: only with --compare FILE"},
      {kMessagesV4, "cosched plan --algorithm t-list-lpt --instance inst.json --budget-ms 100", 2,
       "--budget-ms: only for an algorithm that searches (model-search); t-list-lpt does not search"},
      {kMessagesV4, "cosched plan --algorithm t-list-lpt --instance inst.json --seed 3", 2, "--seed: only for"},
      {kMessagesV4, "cosched plan --algorithm model-search --instance inst.json --seed -1", 2,
       "--seed: value -1 must be a whole number in [0, 18446744073709551615]"},
      {kMessagesV4, "cosched online --policy fcfs --synthetic --jobs 5 --seed -1", 2,
       "--seed: value -1 must be a whole number in [0, 18446744073709551615]"},
      {kMessagesV4, "cosched simulate --tasks 2 --instances 1 --seed -1", 2, "--seed: value -1 must be a whole number"},
      {kMessagesV4, "cosched profile --measurer knl-model --platform plat.toml --kernels triad --footprints-mib 16 "
                    "--placement bind -o o.csv", 2, "--placement, --autohbw-threshold-kib and --autohbw-library say how commands"},
      {kMessagesV4, "cosched plan --algorithm t-list-lpt --instance inst.json --skip bicriteria", 2,
       "--skip: only with --algorithm all"},
      {kMessagesV4, "cosched plan --algorithm all --instance inst.json --skip bogus", 2, "bogus"},
      {kMessagesV4, kTopo, 3, "bad.xml: holds no NUMANode object",
       {{"bad.xml", "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n<object type=\"Machine\" os_index=\"0\" " +
                        test::kMachineXmlSets + ">\n<object type=\"PU\" os_index=\"0\" " + test::kMachineXmlSets +
                        "/>\n</object>\n</topology>\n"}}},
  };
}

}  // namespace

const Files& fixtures() {
  static const Files files{
      {"plat.toml", kPlatform},
      {"plat2.toml", platform("name = \"tiny\"", "chunks = 1\ntier_backend = \"emulated\"")},
      {"p.csv", kProfileCsv},
      {"p.json", R"({"chunk_bytes":33554432})"},
      {"wl.toml", "[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 16\ncount = 2\n"},
      {"inst.json", instance_with(task("a", "0.01") + "," + task("b", "0.01"))},
      {"s.json", schedule_with("t-list-lpt", "0", "0.01")},
      {"w.json", command_workload(kWorkloadA)},
      {"j.jsonl", kJournal},
  };
  return files;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> rows = make_cases();
  return rows;
}

}  // namespace cosched::cli::robustness
