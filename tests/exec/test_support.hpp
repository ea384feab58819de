#pragma once
// Shared helpers of the execution tests.
#include "support/files.hpp"

namespace cosched::exec::testing {

using test_support::scratch_dir;  // a fresh empty folder for one test (tests/support/files.hpp)

}  // namespace cosched::exec::testing
