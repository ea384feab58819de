#include "cosched/common/error.hpp"
#include "cosched/launcher/demo.hpp"

namespace cosched::launcher {

std::filesystem::path run_demo(const DemoOptions& /*options*/) {
  throw UsageError("the demo profiles this machine and needs the profiler library, which this build lacks");
}

}  // namespace cosched::launcher
