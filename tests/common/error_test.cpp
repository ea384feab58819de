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

// Issue #27, item 9: an SWF line with an ESC sequence echoed it to the terminal, one with a NUL cut the message.
TEST(ErrorTest, ControlBytesOfAQuotedInputAreEscapedSoTheMessageIsOneWholeLine) {
  const InputError error("t.swf:2", std::string("got \"1\x1b[31m0\", then \0 and \r\n, a\ttab and \x7f", 41));
  EXPECT_EQ(std::string(error.what()), R"(t.swf:2: got "1\x1b[31m0", then \x00 and \x0d\x0a, a)" "\t" R"(tab and \x7f)");
  EXPECT_EQ(printable("caf\xc3\xa9 ok"), "caf\xc3\xa9 ok");  // UTF-8 stays as it is
}

// Issue 41: a 60 MB program name was echoed whole into one 62.9 MB error line.
TEST(ErrorTest, ALongInputIsEchoedBoundedWithItsHeadTailAndHowMuchWasLeftOut) {
  EXPECT_EQ(bounded_echo("short"), "short");
  const std::string name = "/head" + std::string(1'000'000, 'x') + "tail.sh";
  const std::string echo = bounded_echo(name);
  EXPECT_LE(echo.size(), kEchoLimit + 40);
  EXPECT_EQ(echo.rfind("/head", 0), 0U) << echo;
  EXPECT_EQ(echo.substr(echo.size() - 7), "tail.sh") << echo;
  EXPECT_NE(echo.find(" bytes ...]"), std::string::npos) << echo;
  // A UTF-8 character is never cut in two: the echo of 2-byte characters holds whole ones only.
  std::string accents;
  for (int i = 0; i < 1000; ++i) accents += "\xc3\xa9";
  const std::string cut = bounded_echo(accents, 101);
  for (std::size_t at = 0; at < cut.size(); ++at) {
    if (cut[at] == '\xc3') {
      EXPECT_EQ(cut.at(at + 1), '\xa9') << "a character cut at byte " << at;
    }
    if (cut[at] == '\xa9') {
      EXPECT_EQ(cut.at(at - 1), '\xc3') << "a character cut at byte " << at;
    }
  }
  // Whatever a message quotes, an Error's line is bounded.
  const InputError error("w.json", "program " + name + " not found");
  EXPECT_LE(std::string(error.what()).size(), kMessageLimit + 40);
}

TEST(ErrorTest, PlatformErrorNamesCallAndErrno) {
  const PlatformError error("mbind", "cannot bind 4096 bytes", ENOMEM);
  const std::string text = error.what();
  EXPECT_NE(text.find("mbind: cannot bind 4096 bytes"), std::string::npos);
  EXPECT_NE(text.find("memory"), std::string::npos);  // strerror(ENOMEM)
}

}  // namespace
}  // namespace cosched
