#include "cosched/platform/binding.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "cosched/common/error.hpp"

namespace cosched::platform {
namespace {

TEST(BindingTest, AllowedCoresCoverAllowedPus) {
  const auto pus = allowed_pus();
  const auto cores = allowed_cores();
  ASSERT_FALSE(pus.empty());
  ASSERT_FALSE(cores.empty());
  std::vector<unsigned> from_cores;
  for (const auto& core : cores) from_cores.insert(from_cores.end(), core.begin(), core.end());
  std::sort(from_cores.begin(), from_cores.end());
  EXPECT_EQ(from_cores, pus);
}

TEST(BindingTest, ThreadBindingIsReadBack) {
  const auto pus = allowed_pus();
  for (unsigned pu : pus) {
    std::thread worker([pu] {
      const unsigned target[] = {pu};
      bind_current_thread(target);
      EXPECT_EQ(current_thread_binding(), std::vector<unsigned>{pu});
      EXPECT_EQ(current_pu(), pu);
    });
    worker.join();
  }
}

TEST(BindingTest, EmptyOrForeignPuListIsAnError) {
  EXPECT_THROW(bind_current_thread({}), PlatformError);
  const unsigned absent[] = {100000};
  std::thread worker([&] { EXPECT_THROW(bind_current_thread(absent), PlatformError); });
  worker.join();
}

}  // namespace
}  // namespace cosched::platform
