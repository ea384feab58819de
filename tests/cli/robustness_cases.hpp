#pragma once
// The rows of the robustness suite (robustness_test.cpp): one bad input or option per row, for every subcommand of
// cosched and for stream_bench, grouped by the error classes of issue #9. docs/errors.md has one table row per
// class, in the order the classes first appear here; its command and exit code are those of the class's first row
// (robustness_test.cpp checks it).
#include <string>
#include <utility>
#include <vector>

namespace cosched::cli::robustness {

// name -> content; a name ending in '/' is an empty folder.
using Files = std::vector<std::pair<std::string, std::string>>;

struct Case {
  Case(std::string error_class_, std::string command_, int exit_code_, std::string fragment_, Files files_ = {},
       std::string setup_ = {})
      : error_class(std::move(error_class_)),
        command(std::move(command_)),
        exit_code(exit_code_),
        fragment(std::move(fragment_)),
        files(std::move(files_)),
        setup(std::move(setup_)) {}

  std::string error_class;
  // "cosched plan --instance inst.json ..." or "stream_bench ...": split at spaces. A last word ">/dev/full" sends
  // standard output to /dev/full instead of a file.
  std::string command;
  int exit_code = 0;
  std::string fragment;  // the one stderr line contains it
  Files files;           // written into the row's folder, besides the fixtures every row gets
  std::string setup;     // a cosched command that must succeed first (e.g. the launch whose journal is resumed)
};

// The files every row's folder starts with: a 2-core platform with 2 fast chunks (plat.toml, plat2.toml with 1),
// a profile CSV with its sidecar (p.csv, p.json), a workload TOML (wl.toml), an Instance JSON (inst.json) with two
// tasks "a" and "b", a Schedule JSON for it (s.json), a command workload running /bin/true (w.json) and a
// finished journal (j.jsonl).
[[nodiscard]] const Files& fixtures();

[[nodiscard]] const std::vector<Case>& cases();

}  // namespace cosched::cli::robustness
