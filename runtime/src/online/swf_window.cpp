#include "cosched/online/swf_window.hpp"

#include <chrono>
#include <charconv>

#include "cosched/common/error.hpp"

namespace cosched::online {

namespace {

std::optional<int> digits(std::string_view text) {
  int value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::int64_t> parse_utc_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  const auto year = digits(text.substr(0, 4));
  const auto month = digits(text.substr(5, 2));
  const auto day = digits(text.substr(8, 2));
  if (!year || !month || !day || *year < 1970) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(*year), std::chrono::month(static_cast<unsigned>(*month)),
                                         std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  return std::int64_t{std::chrono::sys_days(date).time_since_epoch().count()} * 86400;
}

SwfTrace swf_window(const SwfTrace& trace, std::optional<std::int64_t> from, std::optional<std::int64_t> to) {
  const auto start = swf_header_integer(trace, "UnixStartTime");
  if (!start) {
    throw InputError(trace.source, "the header has no UnixStartTime: the dates of a window cannot be placed");
  }
  SwfTrace window{trace.source, trace.header, {}};
  for (const SwfRecord& record : trace.records) {
    if (record.submit_time < 0) continue;
    const double submitted = static_cast<double>(*start) + record.submit_time;
    if (from && submitted < static_cast<double>(*from)) continue;
    if (to && submitted >= static_cast<double>(*to)) continue;
    window.records.push_back(record);
  }
  return window;
}

}  // namespace cosched::online
