// The digest files are stamped with: FNV-1a 64 against its published test vectors, and the text form.
#include "cosched/common/digest.hpp"

#include <gtest/gtest.h>

namespace cosched {
namespace {

TEST(Digest, Fnv1aMatchesThePublishedTestVectors) {
  // From the FNV reference test suite (Fowler, Noll, Vo).
  EXPECT_EQ(fnv1a_64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a_64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a_64("foobar"), 0x85944171f73967e8ULL);
}

TEST(Digest, TextNamesTheAlgorithmAndKeepsLeadingZeros) {
  EXPECT_EQ(digest_text("a"), "fnv1a64:af63dc4c8601ec8c");
  const std::string text = digest_text("");
  EXPECT_EQ(text, "fnv1a64:cbf29ce484222325");
  EXPECT_EQ(text.size(), 8U + 16U);
  EXPECT_NE(digest_text("ab"), digest_text("ba"));
}

}  // namespace
}  // namespace cosched
