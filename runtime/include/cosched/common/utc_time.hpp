#pragma once
// One home for UTC time stamps as files and folders carry them. Each format has its own reader or writer here, so
// a journal, a profile sidecar, a node model and a demo folder never format "now" three ways by hand.
#include <chrono>
#include <string>
#include <string_view>

namespace cosched {

// `time` as ISO-8601 UTC to the second ("2026-11-22T13:50:00Z"): node models, profile sidecars, reports.
[[nodiscard]] std::string iso8601_utc(std::chrono::system_clock::time_point time);
// The same to the microsecond ("2026-11-22T13:50:00.123456Z"): journal events, which order a batch's starts.
[[nodiscard]] std::string iso8601_utc_micro(std::chrono::system_clock::time_point time);
// Compact, for names of files and folders ("20261122-135000").
[[nodiscard]] std::string compact_utc(std::chrono::system_clock::time_point time);
// iso8601_utc's text back; throws InputError(where) for text of another form, an impossible date (2023-02-29) or a
// year outside 1970..2200.
[[nodiscard]] std::chrono::system_clock::time_point parse_iso8601_utc(std::string_view text, const std::string& where);

}  // namespace cosched
