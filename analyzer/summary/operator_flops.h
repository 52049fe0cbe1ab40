// FLOPs of one operator call from its name and input shapes text, for the operators where
// the count is well defined (torch.utils.flop_counter's conventions: 2 FLOPs per
// multiply-add, bias additions and softmax not counted):
//
//   mm [M,K]x[K,N]; addmm (bias, [M,K], [K,N]); bmm / baddbmm with a batch B: 2*B*M*N*K
//   matmul: batch dimensions broadcast, 1-D operands as a row / column
//   linear (x [..., IN], w [OUT, IN], bias): 2 * rows(x) * IN * OUT
//   convolution, _convolution, conv1d/2d/3d (x [N, C, *S], w [CO, C/groups, *K], bias,
//     stride, padding, dilation): 2 * N * CO * (C/groups) * prod(K) * prod(output S).
//     stride / padding / dilation are read from their positions when the shapes text
//     carries their values (lists of ints, as torch.profiler's "Concrete Inputs"), else the
//     operator's defaults (1, 0, 1).
//   convolution_backward (grad_out, x, w, ...): 2 x the forward count (grad input and
//     grad weight), output size from grad_out
//   scaled_dot_product_attention and its flash / efficient / cudnn kernels (q [B,H,L,E],
//     k [B,H,S,E], v [B,H,S,Ev]): 2*B*H*L*S*(E + Ev); their _backward (grad_out, q, k, v):
//     twice that.
// Names match with any "aten::" (or other "ns::") prefix and a trailing in-place "_".
#ifndef PROF_ANALYZER_SUMMARY_OPERATOR_FLOPS_H_
#define PROF_ANALYZER_SUMMARY_OPERATOR_FLOPS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"

namespace prof::analyzer {

// "[[8, 3, 32, 32], [16, 3, 3, 3], []]" -> {{8, 3, 32, 32}, {16, 3, 3, 3}, {}}; nullopt
// when the text is not a list of integer lists.
std::optional<std::vector<std::vector<int64_t>>> ParseShapes(absl::string_view text);

// The FLOPs of one call; 0 when the operator is not one of the above or the shapes do not
// fit it.
double OperatorFlops(absl::string_view name, absl::string_view shapes);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_OPERATOR_FLOPS_H_
