// PyTorch's emit_nvtx and record_function name their NVTX ranges
// "NAME, seq = N, op_id = N, sizes = [[2, 3], [3, 4]], input_op_ids = [...]" (every part
// after NAME optional). Grouped verbatim, each call would be a row of its own; split, the
// range is the operator NAME and the sizes are its input shapes.
//
//   NvtxOperatorName parts = SplitNvtxOperatorName("aten::mm, seq = 12, sizes = [[2, 3]]");
//   // parts.name == "aten::mm", parts.shapes == "[[2, 3]]"
#ifndef PROF_ANALYZER_MODEL_NVTX_OPERATOR_NAME_H_
#define PROF_ANALYZER_MODEL_NVTX_OPERATOR_NAME_H_

#include "absl/strings/string_view.h"

namespace prof::analyzer {

struct NvtxOperatorName {
  absl::string_view name;    // the whole text when it is not of this form
  absl::string_view shapes;  // the `sizes = ` list; empty when absent
};

// Views into `text`.
NvtxOperatorName SplitNvtxOperatorName(absl::string_view text);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_NVTX_OPERATOR_NAME_H_
