// The one-shot run: a session measured once. Its first measurement compares every element, so nothing is left
// for finish().
#include "cosched/stream/stream_run.hpp"
#include "cosched/stream/stream_session.hpp"

namespace cosched::stream {

StreamResult run_stream(const StreamConfig& config, platform::TierBackend& backend) {
  StreamSession session(config, backend);
  return session.measure({config.fast_fraction, config.reps, config.warmup_reps});
}

}  // namespace cosched::stream
