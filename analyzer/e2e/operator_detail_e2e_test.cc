// End to end: operator_detail_program calls prof_operator_push_detail and makes
// emit_nvtx-style NVTX ranges under libprof.so on the simulated CUDA platform; the
// analyzer's Operator Summary shows the operators by name with their shapes, FLOPs worked
// out by hand, TFLOPS over their kernel time, and the calling source line.
#include <string>

#include <catch2/catch.hpp>

#include "analyzer/e2e/analyzed_run.h"
#include "analyzer/e2e/workload_runner.h"

namespace prof::analyzer::e2e {
namespace {

constexpr int kSteps = 4;

TEST_CASE("prof_operator_push_detail and emit_nvtx names reach the Operator Summary") {
  const std::string output = FreshFolder("operator_detail");
  const absl::Status run = RunUnderAgent(
      {{Runfile("analyzer/e2e/operator_detail_program"), {"--steps", std::to_string(kSteps)}, {}}},
      output);
  INFO(run.ToString());
  REQUIRE(run.ok());
  absl::StatusOr<std::vector<ProcessFigures>> analyzed = AnalyzeFolder(output);
  INFO(analyzed.status().ToString());
  REQUIRE(analyzed.ok());
  REQUIRE(analyzed->size() == 1);
  const SummaryTable& table = TableOf(analyzed->front(), "operator");

  // linear: x [32, 64], w [128, 64]: 32 * 128 * 64 multiply-adds = 262144, 2 FLOPs each.
  const Row& linear = TopRow(table, "aten::linear");
  CHECK(CellOf(table, linear, "calls").value == kSteps);
  CHECK(CellOf(table, linear, "flops").value == kSteps * 524288.0);
  CHECK(CellOf(table, linear, "source").text == "model.py:12");
  const double linear_gpu = CellOf(table, linear, "gpu").stats.total_ns;
  REQUIRE(linear_gpu > 0);
  CHECK(CellOf(table, linear, "tflops").value == Approx(kSteps * 524288.0 / linear_gpu / 1e3));
  // Its kernel is addmm's: linear's own (self) GPU time is 0, addmm's is all of it.
  CHECK(CellOf(table, linear, "self_gpu").stats.total_ns == 0);
  const Row& addmm = TopRow(table, "aten::addmm");
  CHECK(CellOf(table, addmm, "self_gpu").stats.total_ns == linear_gpu);
  CHECK(CellOf(table, addmm, "flops").value == kSteps * 524288.0);
  CHECK(CellOf(table, addmm, "source").text.empty());

  // The NVTX ranges, one name per call, are one row; [8, 16] x [16, 4]: 512 MACs.
  const Row& mm = TopRow(table, "aten::mm");
  CHECK(CellOf(table, mm, "calls").value == kSteps);
  CHECK(CellOf(table, mm, "flops").value == kSteps * 1024.0);
  for (const Row& row : table.rows) {
    CHECK(row.cells.empty() == (row.kind != Row::Kind::kData && row.kind != Row::Kind::kHeader));
    if (!row.cells.empty()) CHECK(row.cells[0].text.find("seq =") == std::string::npos);
  }
}

}  // namespace
}  // namespace prof::analyzer::e2e
