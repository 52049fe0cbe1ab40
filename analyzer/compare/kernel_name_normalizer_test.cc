// Kernel-name normalization: demangling, parameter lists and return types dropped,
// optional template stripping, and both NCCL kernel-name generations unified.
#include <catch2/catch.hpp>

#include "analyzer/compare/kernel_name_normalizer.h"

namespace prof::analyzer::compare {
namespace {

TEST_CASE("mangled and demangled spellings of a kernel match") {
  const NameOptions keep;
  CHECK(NormalizeKernelName("_Z11relu_kernelIfLi256EEvPKT_PS0_i", keep) ==
        "relu_kernel<float, 256>");
  CHECK(NormalizeKernelName("void relu_kernel<float, 256>(float const*, float*, int)", keep) ==
        "relu_kernel<float, 256>");
  CHECK(NormalizeKernelName("volta_sgemm_128x64_nn", keep) == "volta_sgemm_128x64_nn");
  CHECK(NormalizeKernelName("at::native::vectorized_elementwise_kernel<4, float>(int, float*)",
                            keep) == "at::native::vectorized_elementwise_kernel<4, float>");
}

TEST_CASE("template arguments are stripped on request") {
  NameOptions strip;
  strip.strip_templates = true;
  CHECK(NormalizeKernelName("_Z11relu_kernelIfLi256EEvPKT_PS0_i", strip) == "relu_kernel");
  CHECK(NormalizeKernelName("void cutlass::Kernel<cutlass::gemm::Gemm<float, 128>>(Params)",
                            strip) == "cutlass::Kernel");
  CHECK(StripTemplateArguments("a<b<c>>::f<d>") == "a::f");
  CHECK(StripTemplateArguments("operator<") == "operator<");
}

TEST_CASE("both NCCL kernel-name generations give one name") {
  const NameOptions keep;
  const std::string legacy = NormalizeKernelName(
      "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", keep);
  const std::string current = NormalizeKernelName(
      "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", keep);
  CHECK(legacy == "nccl:AllReduce_Sum_f32");
  CHECK(current == legacy);
  CHECK(NormalizeKernelName(
            "ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
            keep) == "nccl:AllGather");
  CHECK(NormalizeKernelName("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                            keep) == "nccl:AllGather");
  CHECK(NormalizeKernelName(
            "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
            keep) ==
        NormalizeKernelName("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", keep));
  CHECK(NormalizeKernelName("ncclKernel_ReduceScatter_RING_LL_Sum_uint8_t(x)", keep) ==
        "nccl:ReduceScatter_Sum_u8");
  CHECK(NormalizeKernelName("ncclKernel_AllReduce_TREE_LL128_Sum___nv_bfloat16(x)", keep) ==
        NormalizeKernelName("ncclDevKernel_AllReduce_Sum_bf16_RING_SIMPLE(x)", keep));
  CHECK(CanonicalNcclKernelName("volta_sgemm_128x64_nn").empty());
}

}  // namespace
}  // namespace prof::analyzer::compare
