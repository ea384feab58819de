#pragma once
// A window of an SWF trace by submit time, given as calendar dates (seed 002 replays LPC-EGEE from 6 Dec 2004 to
// 24 Jan 2005). SWF submit times count seconds from the log's start, whose Unix time is the header's
// UnixStartTime; dates are read as 00:00 UTC (the header's TimeZoneString is not applied: a window is off by the
// log's UTC offset, hours against a window of weeks).
#include <cstdint>
#include <optional>
#include <string_view>

#include "cosched/online/swf.hpp"

namespace cosched::online {

// Unix seconds of 00:00 UTC on the date "YYYY-MM-DD" (a real calendar day, year 1970..9999); nullopt for anything
// else.
[[nodiscard]] std::optional<std::int64_t> parse_utc_date(std::string_view text);

// The trace with only the records submitted in [from, to) (Unix seconds; either bound may be absent), header
// unchanged. Throws InputError(trace.source, ...) when the header has no UnixStartTime.
[[nodiscard]] SwfTrace swf_window(const SwfTrace& trace, std::optional<std::int64_t> from,
                                  std::optional<std::int64_t> to);

}  // namespace cosched::online
