#include "cosched/common/error.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <set>

namespace cosched {
namespace {

TEST(ErrorTest, KindsMapToDistinctNonZeroExitCodes) {
  std::set<int> codes;
  for (ErrorKind kind : {ErrorKind::usage, ErrorKind::input, ErrorKind::resource, ErrorKind::platform,
                         ErrorKind::runtime}) {
    const int code = exit_code_for(kind);
    EXPECT_NE(code, 0);
    codes.insert(code);
  }
  EXPECT_EQ(codes.size(), 5u);
}

TEST(ErrorTest, InputErrorPrefixesLocation) {
  const InputError error("inst.json:12", "negative time");
  EXPECT_STREQ(error.what(), "inst.json:12: negative time");
  EXPECT_EQ(error.kind(), ErrorKind::input);
}

TEST(ErrorTest, PlatformErrorNamesCallAndErrno) {
  const PlatformError error("mbind", "cannot bind 4096 bytes", ENOMEM);
  const std::string text = error.what();
  EXPECT_NE(text.find("mbind: cannot bind 4096 bytes"), std::string::npos);
  EXPECT_NE(text.find("memory"), std::string::npos);  // strerror(ENOMEM)
}

}  // namespace
}  // namespace cosched
