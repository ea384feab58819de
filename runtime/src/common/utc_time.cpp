#include "cosched/common/utc_time.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <ctime>

#include "cosched/common/error.hpp"

namespace cosched {

namespace {

std::tm utc_of(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return utc;
}

}  // namespace

std::string iso8601_utc(std::chrono::system_clock::time_point time) {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", utc_of(time));
}

std::string iso8601_utc_micro(std::chrono::system_clock::time_point time) {
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count() % 1000000;
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:06d}Z", utc_of(time), micros);
}

std::string compact_utc(std::chrono::system_clock::time_point time) {
  return fmt::format("{:%Y%m%d-%H%M%S}", utc_of(time));
}

std::chrono::system_clock::time_point parse_iso8601_utc(std::string_view text, const std::string& where) {
  const auto refuse = [&] {
    throw InputError(where, fmt::format("date \"{}\" is not an ISO-8601 UTC time like 2026-11-22T13:50:00Z", text));
  };
  constexpr std::string_view shape = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != shape.size()) refuse();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (shape[i] == 'd' ? !digit : text[i] != shape[i]) refuse();
  }
  const auto number = [&](std::size_t at, std::size_t length) {
    int value = 0;
    for (std::size_t i = at; i < at + length; ++i) value = value * 10 + (text[i] - '0');
    return value;
  };
  // system_clock counts nanoseconds in 64 bits: 1677..2262. A calibration is made after 1970 and before 2200.
  constexpr int kFirstYear = 1970;
  constexpr int kLastYear = 2200;
  const int year = number(0, 4);
  if (year < kFirstYear || year > kLastYear) {
    throw InputError(where, fmt::format("date \"{}\": the year must be {} to {}", text, kFirstYear, kLastYear));
  }
  std::tm utc{};
  utc.tm_year = year - 1900;
  utc.tm_mon = number(5, 2) - 1;
  utc.tm_mday = number(8, 2);
  utc.tm_hour = number(11, 2);
  utc.tm_min = number(14, 2);
  utc.tm_sec = number(17, 2);
  const std::tm asked = utc;
  const std::time_t seconds = timegm(&utc);
  // timegm normalises 2026-02-30 into March: a date that changed was not a date.
  if (seconds == static_cast<std::time_t>(-1) || utc.tm_year != asked.tm_year || utc.tm_mon != asked.tm_mon ||
      utc.tm_mday != asked.tm_mday || utc.tm_hour != asked.tm_hour || utc.tm_min != asked.tm_min ||
      utc.tm_sec != asked.tm_sec) {
    refuse();
  }
  return std::chrono::system_clock::from_time_t(seconds);
}

}  // namespace cosched
