// A fixture for scripts/check_layers.py (tests/CMakeLists.txt): online may use sched's public headers, never its
// private ones (runtime/src/sched/), so this include must be reported.
#include "sched/bandwidth_list.hpp"
