// Kernel names as compare matches them: demangled, without the parameter list and the
// return type, optionally without template arguments, and with both generations of NCCL
// kernel names (ncclKernel_* up to 2.18, ncclDevKernel_* from 2.19) mapped to one
// canonical "nccl:<Collective>[_<RedOp>_<type>]" name. The point is that a library
// upgrade that only renames kernels does not read as "one kernel gone, one new".
// Pure functions.
#ifndef PROF_ANALYZER_COMPARE_KERNEL_NAME_NORMALIZER_H_
#define PROF_ANALYZER_COMPARE_KERNEL_NAME_NORMALIZER_H_

#include <string>

#include "absl/strings/string_view.h"

namespace prof::analyzer::compare {

struct NameOptions {
  bool strip_templates = false;  // "gemm<float, 128>" -> "gemm"
};

// The matching key of a kernel name, mangled or demangled, e.g.
//   "_Z11relu_kernelIfLi256EEvPKT_PS0_i"                      -> "relu_kernel<float, 256>"
//   "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, ...)" -> "nccl:AllReduce_Sum_f32"
//   "ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)"             -> "nccl:AllReduce_Sum_f32"
std::string NormalizeKernelName(absl::string_view name, const NameOptions& options);

// The canonical name of an NCCL kernel of either generation (algorithm and protocol
// dropped: NCCL picks them per message size and version); empty when `name` (demangled,
// parameter list removed) is not an NCCL kernel.
std::string CanonicalNcclKernelName(absl::string_view name);

// `name` without its top-level template argument lists ("a<b<c>>::f<d>" -> "a::f").
std::string StripTemplateArguments(absl::string_view name);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_KERNEL_NAME_NORMALIZER_H_
