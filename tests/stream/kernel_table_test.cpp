#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/stream/kernels.hpp"
#include "stream/expected_arrays.hpp"

namespace cosched::stream {
namespace {

TEST(KernelTable, ListsTheSixStreamKernelsWithStreamByteCounts) {
  const std::map<std::string, std::size_t> expected{{"write", 8}, {"ddot", 16}, {"copy", 16},
                                                    {"scale", 16}, {"add", 24},  {"triad", 24}};
  ASSERT_EQ(testing::elementwise_kernels().size(), expected.size());
  for (const KernelSpec* each : testing::elementwise_kernels()) {
    const KernelSpec& kernel = *each;
    const auto it = expected.find(std::string(kernel.name));
    ASSERT_NE(it, expected.end()) << kernel.name;
    EXPECT_EQ(kernel.bytes_per_element(), it->second) << kernel.name;
    EXPECT_FALSE(kernel.formula.empty());
  }
}

TEST(KernelTable, ArraysMatchTheStreamFormulas) {
  using enum ArrayId;
  EXPECT_EQ(find_kernel("triad").reads.bits, arrays({b, c}).bits);
  EXPECT_EQ(find_kernel("triad").writes.bits, arrays({a}).bits);
  EXPECT_EQ(find_kernel("copy").writes.bits, arrays({c}).bits);
  EXPECT_EQ(find_kernel("scale").writes.bits, arrays({b}).bits);
  EXPECT_EQ(find_kernel("add").writes.bits, arrays({c}).bits);
  EXPECT_EQ(find_kernel("write").reads.size(), 0U);
  EXPECT_TRUE(find_kernel("ddot").is_reduction());
  EXPECT_EQ(find_kernel("ddot").touched().bits, arrays({a, b}).bits);
}

TEST(KernelTable, ElementFormulasComputeTheStreamOperations) {
  const double s = kernel_scalar;
  EXPECT_EQ(find_kernel("write").element(1, 2, 5, s), s);
  EXPECT_EQ(find_kernel("ddot").element(3, 4, 5, s), 12.0);
  EXPECT_EQ(find_kernel("copy").element(3, 4, 5, s), 3.0);
  EXPECT_EQ(find_kernel("scale").element(3, 4, 5, s), s * 5);
  EXPECT_EQ(find_kernel("add").element(3, 4, 5, s), 7.0);
  EXPECT_EQ(find_kernel("triad").element(3, 4, 5, s), 4 + s * 5);
}

TEST(KernelTable, UnknownKernelIsAUsageErrorNamingTheValidOnes) {
  try {
    (void)find_kernel("stream");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("stream"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("triad"), std::string::npos);
  }
  EXPECT_EQ(kernel_names(), "write, ddot, copy, scale, add, triad, gemm, stencil, spmv, gups");
}

// Validation can only catch a skipped element if the written value differs from the array's initial value.
TEST(KernelTable, InitialValuesMakeEveryWrittenElementChange) {
  for (const KernelSpec* each : testing::elementwise_kernels()) {
    const KernelSpec& kernel = *each;
    if (kernel.is_reduction()) continue;
    for (std::size_t i = 0; i < 96; ++i) {
      const double written = kernel.element(initial_value(ArrayId::a, i), initial_value(ArrayId::b, i),
                                             initial_value(ArrayId::c, i), kernel_scalar);
      for (ArrayId id : {ArrayId::a, ArrayId::b, ArrayId::c}) {
        if (kernel.writes.contains(id)) {
          EXPECT_NE(written, initial_value(id, i)) << kernel.name << " i=" << i;
        }
      }
    }
  }
}

// First touch and validation work from one period of values; a change to initial_value must keep it a period.
TEST(KernelTable, InitialValuesRepeatWithTheDeclaredPeriod) {
  for (ArrayId id : {ArrayId::a, ArrayId::b, ArrayId::c}) {
    for (std::size_t i = 0; i < 10 * initial_value_period; ++i) {
      EXPECT_EQ(initial_value(id, i), initial_value(id, i % initial_value_period)) << array_name(id) << i;
    }
  }
}

}  // namespace
}  // namespace cosched::stream
