#pragma once
// Runs library code we cannot trust on hostile input (hwloc's XML import) in a forked child first, so that a crash
// or a stack overflow there ends the child, not cosched, and becomes an error with the file named.
#include <functional>
#include <optional>
#include <string>

namespace cosched::platform::topology_detail {

// Forks, runs `work` in the child with stderr silenced (an exception counts as an ordinary end: the caller will
// meet it again when it does the work itself) and waits. nullopt when the child ended normally, else how it ended:
// "crashed with signal 11 (Segmentation fault)" or "ended with exit code 1". Only for single-threaded callers
// (the child runs `work` with whatever locks other threads held at the fork).
[[nodiscard]] std::optional<std::string> crash_in_child(const std::function<void()>& work);

}  // namespace cosched::platform::topology_detail
