// A fixture for scripts/check_layers.py (tests/CMakeLists.txt): common may include nothing of cosched's above it,
// so this include must be reported.
#include "cosched/launcher/launch.hpp"
