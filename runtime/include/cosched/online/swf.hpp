#pragma once
// Job traces in the Standard Workload Format of the Parallel Workloads Archive
// (https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): one typed schema (SwfRecord, SwfTrace), one parser
// (parse_swf; load_swf and read_swf_bytes read files, plain or gzip), one writer (to_swf), and the online workload
// a trace becomes (workload_from_swf).
//
// A job line holds 18 whitespace-separated numbers; -1 means unknown and is the only negative value allowed. A
// line starting with ';' is a header comment (`; MaxProcs: 400`), kept verbatim; blank lines are skipped.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/online/workload.hpp"

namespace cosched::online {

// Limits against absurd input, far above the Archive's logs (the largest hold a few million jobs in a few hundred
// MB): the text of a trace (after decompression), a line, the records, and the numbers. Times are seconds, at
// most kMaxSeconds (31 years); processor counts become the capacity of an allocation space, so at most
// kMaxCapacity; other integers (ids, memory in KB) at most 2^53, where doubles stop counting exactly.
inline constexpr std::size_t kMaxSwfBytes = std::size_t{1} << 30;
inline constexpr std::size_t kMaxSwfLineLength = 4096;
inline constexpr std::size_t kMaxSwfRecords = 10'000'000;
inline constexpr double kMaxSwfInteger = 9007199254740992.0;  // 2^53
inline constexpr std::int64_t kMaxSwfUnixTime = 253402300799;  // 9999-12-31T23:59:59Z: a header's UnixStartTime

// One job line. Every field is -1 when unknown. Integer fields hold integers; times may have fractions.
struct SwfRecord {
  std::int64_t job_number = -1;       //  1: a counter, from 1
  double submit_time = -1;            //  2: seconds since the log's start
  double wait_time = -1;              //  3: seconds from submission to start
  double run_time = -1;               //  4: seconds from start to end
  std::int64_t allocated_procs = -1;  //  5
  double average_cpu_time = -1;       //  6: per processor, seconds
  double used_memory = -1;            //  7: per processor, KB
  std::int64_t requested_procs = -1;  //  8
  double requested_time = -1;         //  9: the user's estimate or wall-clock limit, seconds
  double requested_memory = -1;       // 10: per processor, KB
  std::int64_t status = -1;           // 11: 1 completed, 0 failed, 5 cancelled, 2-4 partial executions
  std::int64_t user_id = -1;          // 12
  std::int64_t group_id = -1;         // 13
  std::int64_t executable = -1;       // 14: application number
  std::int64_t queue = -1;            // 15
  std::int64_t partition = -1;        // 16
  std::int64_t preceding_job = -1;    // 17
  double think_time = -1;             // 18: seconds after the preceding job
  friend bool operator==(const SwfRecord&, const SwfRecord&) = default;
};

struct SwfTrace {
  std::string source;               // the file (or what the caller named it); not written by to_swf
  std::vector<std::string> header;  // the comment lines without their ';', in file order
  std::vector<SwfRecord> records;   // in file order
  friend bool operator==(const SwfTrace&, const SwfTrace&) = default;
};

// The 18 field names, in order, as the messages name them ("run_time").
[[nodiscard]] const std::vector<std::string_view>& swf_field_names();

// Parses SWF text. Throws InputError("<source>:<line>", ...) naming the field for a line that does not have 18
// fields, a field that is not a number, NaN or infinite, a negative value other than -1, a fraction in an integer
// field, or a value above its limit; a header MaxProcs (1..kMaxCapacity) or UnixStartTime (0..kMaxSwfUnixTime) that
// is not an integer in range; and for text, a line or a record count above the limits.
[[nodiscard]] SwfTrace parse_swf(std::string_view text, const std::string& source);
// The bytes of a file: gzip (told by its magic bytes 1f 8b, not by its name; concatenated members are read in
// turn) or plain text, then parse_swf. Throws InputError(source, ...) for a corrupt or truncated gzip stream and
// for text above kMaxSwfBytes.
[[nodiscard]] SwfTrace read_swf_bytes(std::string_view bytes, const std::string& source);
// read_swf_bytes of a file; InputError when it cannot be read.
[[nodiscard]] SwfTrace load_swf(const std::filesystem::path& path);
// The trace as SWF text: the header lines, then one line per record; parse_swf reads back an equal trace (times
// are written in the shortest form that reads back to the same double).
[[nodiscard]] std::string to_swf(const SwfTrace& trace);

// The integer at the start of the header line "<key>: <value>" (`; MaxProcs: 400`, `; MaxNodes: 400 (48 ...)`),
// the first such line; nullopt when there is none or it does not start with an integer.
[[nodiscard]] std::optional<std::int64_t> swf_header_integer(const SwfTrace& trace, std::string_view key);

struct SwfOptions {
  // m, the processors of the machine: by default the header's MaxProcs, else the largest size among usable jobs.
  // (The paper simulates 512 processors for both SDSC Par 96, whose MaxProcs is 400, and OSC, 178.)
  std::optional<int> procs;
  // Keep only the first N usable jobs (the paper takes the first 8,000 of each log).
  std::optional<std::size_t> max_jobs;
  // Moldable jobs of the Downey model drawn with this seed (downey.hpp); without it, jobs are rigid.
  std::optional<std::uint64_t> downey_seed;
};

// The records workload_from_swf keeps, and what it dropped. A record is usable when its job number is >= 0, its
// submit time known, its run time > 0, and its size (allocated processors, else the requested ones when the
// allocated count is -1) >= 1 and at most m. The paper says nothing about such records; it kept every job of a
// log's first 8,000 (status 0, failed, included: 139 in SDSC's), but a job that ran 0 seconds (6 there) has no
// stretch (it divides by the run time), so it is dropped — N usable jobs then come from slightly more records.
struct SwfSelection {
  std::vector<std::size_t> kept;       // indices into trace.records, in file order
  std::vector<int> sizes;              // each kept job's processor count
  int procs = 0;                       // m
  std::size_t records_read = 0;        // records looked at (up to the last kept one when max_jobs cut the trace)
  std::size_t without_run_time = 0;    // run time -1 or 0
  std::size_t without_size = 0;        // no processor count >= 1
  std::size_t without_submit_time = 0; // submit time or job number -1
  std::size_t wider_than_machine = 0;  // more processors than m
};
// Throws InputError(trace.source, ...) for options.procs outside [1, kMaxCapacity] or max_jobs = 0, and when no
// record is usable.
[[nodiscard]] SwfSelection select_swf_jobs(const SwfTrace& trace, const SwfOptions& options);

// The online workload of a trace: one job per selected record, id "job-<job number>", released at its submit
// time minus the earliest kept submit time, user = the user id when known, estimate = the requested time when
// > 0, logged end = release + wait time + run time when the wait time is known (>= 0); a RigidProfile (size, run time), or with downey_seed a DowneyProfile drawn by make_moldable_downey from
// (run time, size). One resource "procs" of capacity m. The source says the file, the selection (counts of what
// was dropped) and the model. Throws select_swf_jobs's errors and InputError for a job number that appears twice.
[[nodiscard]] OnlineWorkload workload_from_swf(const SwfTrace& trace, const SwfOptions& options);

}  // namespace cosched::online
