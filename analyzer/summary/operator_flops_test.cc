// FLOPs against counts worked out by hand (2 FLOPs per multiply-add).
#include "analyzer/summary/operator_flops.h"

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

TEST_CASE("shapes text: lists of dimension lists, [] for non-tensors, nested lists unknown") {
  const auto shapes = ParseShapes(" [[8, 3, 32, 32], [16, 3, 3, 3], [], [[1, 2], [3]], 5]");
  REQUIRE(shapes);
  REQUIRE(shapes->size() == 5);
  CHECK((*shapes)[0] == std::vector<int64_t>{8, 3, 32, 32});
  CHECK((*shapes)[1] == std::vector<int64_t>{16, 3, 3, 3});
  CHECK((*shapes)[2].empty());
  CHECK((*shapes)[3].empty());
  CHECK((*shapes)[4].empty());
  CHECK(ParseShapes("[]")->empty());
  CHECK_FALSE(ParseShapes("[[1, 2]"));
  CHECK_FALSE(ParseShapes("[[1, x]]"));
  CHECK_FALSE(ParseShapes("[[1]] tail"));
}

TEST_CASE("matrix products") {
  // [64, 128] x [128, 32]: 64*32 outputs of 128 multiply-adds = 262144 MACs.
  CHECK(OperatorFlops("aten::mm", "[[64, 128], [128, 32]]") == 524288);
  CHECK(OperatorFlops("aten::addmm", "[[32], [64, 128], [128, 32], [], []]") == 524288);
  CHECK(OperatorFlops("aten::addmm_", "[[64, 32], [64, 128], [128, 32]]") == 524288);
  // 4 batches of [8, 16] x [16, 2]: 4*8*2*16 = 1024 MACs.
  CHECK(OperatorFlops("aten::bmm", "[[4, 8, 16], [4, 16, 2]]") == 2048);
  CHECK(OperatorFlops("aten::baddbmm", "[[4, 8, 2], [4, 8, 16], [4, 16, 2], [], []]") == 2048);
  // matmul broadcasts [2, 1, 8, 16] x [3, 16, 2] to 2*3 batches: 6*8*2*16 = 1536 MACs.
  CHECK(OperatorFlops("aten::matmul", "[[2, 1, 8, 16], [3, 16, 2]]") == 3072);
  // vector . vector: 16 MACs; matrix x vector [8, 16] x [16]: 128 MACs.
  CHECK(OperatorFlops("aten::matmul", "[[16], [16]]") == 32);
  CHECK(OperatorFlops("matmul", "[[8, 16], [16]]") == 256);
  // linear: x [32, 10, 64] (320 rows), w [128, 64]: 320*128*64 = 2621440 MACs.
  CHECK(OperatorFlops("aten::linear", "[[32, 10, 64], [128, 64], [128]]") == 5242880);
  CHECK(OperatorFlops("torch.nn.functional.linear", "[[4, 3], [2, 3]]") == 48);
}

TEST_CASE("convolution forward: defaults stride 1, padding 0, dilation 1, or given values") {
  // x [8, 3, 32, 32], w [16, 3, 3, 3], stride 1, no padding: 30x30 outputs per channel;
  // 8 * 16 * 900 outputs of 27 MACs = 3110400 MACs.
  CHECK(OperatorFlops("aten::conv2d", "[[8, 3, 32, 32], [16, 3, 3, 3], [16], [], [], [], []]") ==
        6220800);
  CHECK(OperatorFlops("aten::convolution",
                      "[[8, 3, 32, 32], [16, 3, 3, 3], [16], [], [], [], [], [], []]") == 6220800);
  // stride 2, padding 1: (32 + 2 - 2 - 1) / 2 + 1 = 16 -> 8*16*256*27 = 884736 MACs.
  CHECK(
      OperatorFlops("aten::convolution",
                    "[[8, 3, 32, 32], [16, 3, 3, 3], [16], [2, 2], [1, 1], [1, 1], [], [], []]") ==
      1769472);
  // groups = 4: x [2, 8, 10], w [12, 2, 3] (1-D): 8 outputs; 2*12*8*(2*3) = 1152 MACs.
  CHECK(OperatorFlops("aten::conv1d", "[[2, 8, 10], [12, 2, 3], [], [1], [0], [1], []]") == 2304);
  CHECK(OperatorFlops("aten::conv2d", "[[8, 3, 32, 32]]") == 0);
}

TEST_CASE("convolution backward: grad input and grad weight, each the forward count") {
  // grad_out [8, 16, 30, 30], x [8, 3, 32, 32], w [16, 3, 3, 3]: forward 3110400 MACs.
  CHECK(OperatorFlops(
            "aten::convolution_backward",
            "[[8, 16, 30, 30], [8, 3, 32, 32], [16, 3, 3, 3], [], [], [], [], [], [], [], []]") ==
        2 * 6220800.0);
}

TEST_CASE("scaled dot-product attention, forward and backward") {
  // q [2, 4, 128, 64], k, v [2, 4, 256, 64]: QK^T 2*4*128*256*64 MACs and the same for
  // attention x V: 2 * 16777216 MACs = 67108864 FLOPs.
  const char* shapes = "[[2, 4, 128, 64], [2, 4, 256, 64], [2, 4, 256, 64], [], [], []]";
  CHECK(OperatorFlops("aten::scaled_dot_product_attention", shapes) == 67108864);
  CHECK(OperatorFlops("aten::_scaled_dot_product_flash_attention", shapes) == 67108864);
  CHECK(OperatorFlops("aten::_scaled_dot_product_flash_attention_backward",
                      "[[2, 4, 128, 64], [2, 4, 128, 64], [2, 4, 256, 64], [2, 4, 256, 64]]") ==
        2 * 67108864.0);
}

TEST_CASE("operators without a defined count, and shapes that do not fit, give 0") {
  CHECK(OperatorFlops("aten::add", "[[4, 4], [4, 4]]") == 0);
  CHECK(OperatorFlops("aten::mm", "") == 0);
  CHECK(OperatorFlops("aten::mm", "[[4, 5], [6, 7]]") == 0);
  CHECK(OperatorFlops("aten::mm", "not shapes") == 0);
  CHECK(OperatorFlops("aten::linear", "[[4, 3], [2, 5]]") == 0);
}

}  // namespace
}  // namespace prof::analyzer
