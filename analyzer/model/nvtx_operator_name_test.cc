#include "analyzer/model/nvtx_operator_name.h"

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

// Texts as PyTorch's emit_nvtx writes them (torch/csrc/profiler/util.cpp getNvtxStr).
TEST_CASE("emit_nvtx names: NAME before the first known key, sizes kept as shapes") {
  auto parts = SplitNvtxOperatorName("aten::mm, seq = 12, op_id = 40, sizes = [[2, 3], [3, 4]]");
  CHECK(parts.name == "aten::mm");
  CHECK(parts.shapes == "[[2, 3], [3, 4]]");

  parts = SplitNvtxOperatorName(
      "aten::addmm, op_id = 7, sizes = [[4], [8, 16], [16, 4]], input_op_ids = [(6, 0)]");
  CHECK(parts.name == "aten::addmm");
  CHECK(parts.shapes == "[[4], [8, 16], [16, 4]]");

  parts = SplitNvtxOperatorName("aten::relu_, seq = 3");
  CHECK(parts.name == "aten::relu_");
  CHECK(parts.shapes.empty());

  parts = SplitNvtxOperatorName("AddmmBackward0, seq = 3, op_id = 90");
  CHECK(parts.name == "AddmmBackward0");
}

TEST_CASE("other names are left whole") {
  for (const char* text : {"Forward", "matmul, big", "a, seq=1", ", seq = 1", "x, sizes = [[1"}) {
    INFO(text);
    const auto parts = SplitNvtxOperatorName(text);
    if (std::string(text) == "x, sizes = [[1") {
      CHECK(parts.name == "x");  // the form is there; the cut list is dropped
      CHECK(parts.shapes.empty());
    } else {
      CHECK(parts.name == text);
      CHECK(parts.shapes.empty());
    }
  }
}

}  // namespace
}  // namespace prof::analyzer
