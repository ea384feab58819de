// The id rule's own cases (issue #27, mutation testing: '/' or a leading '-' allowed in ids was caught only by one
// test of another suite each). Ids name files (<log dir>/<id>.out), so the rule is what keeps them in their folder.
#include "cosched/common/identifier.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cosched/common/error.hpp"

namespace cosched {
namespace {

TEST(Identifier, AcceptsTheSafeCharactersAnywhereButALeadingDotOrDash) {
  for (const std::string& id : std::vector<std::string>{"a", "0", "_", "+x", "A.b_c+d-1", "a.", "a-", "t-list-lpt", "node-000.journal.jsonl",
                               std::string(kMaxIdentifierLength, 'x')}) {
    EXPECT_TRUE(is_safe_identifier(id)) << id;
    EXPECT_NO_THROW(check_identifier(id, "w.json"));
  }
}

TEST(Identifier, RefusesWhatCouldNameAnotherFileOrAnOption) {
  for (const std::string& id : std::vector<std::string>{"", "a/b", "/a", "a/", "../x", "..", ".", ".hidden", "-", "-rf", "--force", "a b",
                               "a\\b", "a:b", "a*", "caf\xc3\xa9", std::string("a\0b", 3), "a\n",
                               std::string(kMaxIdentifierLength + 1, 'x')}) {
    EXPECT_FALSE(is_safe_identifier(id)) << id;
    EXPECT_THROW(check_identifier(id, "w.json"), InputError) << id;
  }
}

// The message check_identifier throws for `id` ("" if it throws none).
std::string refusal_of(const std::string& id, const std::string& where) {
  try {
    check_identifier(id, where);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(Identifier, TheMessageNamesTheWhereTheIdAndTheRule) {
  const std::string message = refusal_of("a/b", "w.json: tasks[3]");
  EXPECT_EQ(message.rfind("w.json: tasks[3]: id \"a/b\" is not allowed", 0), 0U) << message;
  EXPECT_NE(message.find("do not start with '.' or '-'"), std::string::npos) << message;
}

// A control byte in an id is shown escaped, as every error message shows it (ESC as \x1b), not as a '?' that could
// be the id's own character.
TEST(Identifier, TheMessageShowsControlBytesEscaped) {
  const std::string message = refusal_of("a\x1b[31mb?", "w.json");
  EXPECT_NE(message.find("id \"a\\x1b[31mb?\""), std::string::npos) << message;
  EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
}

}  // namespace
}  // namespace cosched
