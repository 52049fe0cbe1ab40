// End to end: kernels a library launches through its own static runtime and through the
// driver (the simulated cuBLAS stand-in, as cuBLAS and cuDNN do on a real GPU) belong to
// the operator that called the library: library_app wraps each simblasGemm call in an
// operator range "aten::mm", whose GPU Total must be the time of the GEMM and split-K
// kernels and the workspace memset, as the model and the Memory Manipulation Summary sum
// them by name from the device records alone.
#include <string>

#include <catch2/catch.hpp>

#include "analyzer/e2e/analyzed_run.h"
#include "analyzer/e2e/workload_runner.h"
#include "sim/sim_blas.h"

namespace prof::analyzer::e2e {
namespace {

constexpr int kSteps = 8;
constexpr int kRecorded = 4;  // PROF_SCHEDULE=2:6

TEST_CASE("an operator's GPU Total holds the kernels its library launched itself") {
  const std::string output = FreshFolder("library_kernels");
  const absl::Status run = RunUnderAgent({{Runfile("testdata/workloads/library_app"),
                                           {std::to_string(kSteps), "--operators"},
                                           {{"PROF_SCHEDULE", "2:6"}}}},
                                         output);
  INFO(run.ToString());
  REQUIRE(run.ok());
  absl::StatusOr<std::vector<ProcessFigures>> analyzed = AnalyzeFolder(output);
  INFO(analyzed.status().ToString());
  REQUIRE(analyzed.ok());
  REQUIRE(analyzed->size() == 1);
  const ProcessFigures& figures = analyzed->front();
  const CountAndTime gemm = figures.kernels.at(SIM_BLAS_GEMM_KERNEL);
  const CountAndTime reduce = figures.kernels.at(SIM_BLAS_REDUCE_KERNEL);
  CHECK(gemm.count == kRecorded);
  CHECK(reduce.count == kRecorded);
  const SummaryTable& operators = TableOf(figures, "operator");
  const Row& mm = TopRow(operators, "aten::mm");
  // paddle's operator GPU time: its kernels, copies and memsets (the workspace memset).
  const CopyRow& memset = figures.copy_rows.at("cudaMemsetAsync");
  CHECK(memset.calls == kRecorded);
  CHECK(CellOf(operators, mm, "gpu").stats.total_ns ==
        Approx(gemm.total_ns + reduce.total_ns + memset.gpu_total_ns).epsilon(1e-9));
  CHECK(CellOf(operators, mm, "calls").value == kRecorded);
  for (const SummaryTable& table : figures.report.tables) {  // no unmatched device record
    if (table.key != "data_quality") continue;
    for (const Row& row : table.rows) {
      if (!row.cells.empty()) CHECK(row.cells[0].text.find("unmatched") == std::string::npos);
    }
  }
}

// The program's own launches, as library_app.cc writes them: each recorded step launches
// elementwise_kernel <<<256, 256>>> and reduce_kernel <<<64, 256>>>, no shared memory.
TEST_CASE("without CUPTI the launches are listed by configuration, with no device times") {
  const std::string output = FreshFolder("library_kernels_no_cupti");
  const absl::Status run = RunUnderAgent(
      {{Runfile("testdata/workloads/library_app"),
        {std::to_string(kSteps)},
        {{"PROF_SCHEDULE", "2:6"}, {"PROF_CUPTI_LIB", output + "/no_such_libcupti.so"}}}},
      output);
  INFO(run.ToString());
  REQUIRE(run.ok());
  absl::StatusOr<std::vector<ProcessFigures>> analyzed = AnalyzeFolder(output);
  INFO(analyzed.status().ToString());
  REQUIRE(analyzed.ok());
  REQUIRE(analyzed->size() == 1);
  const ProcessFigures& figures = analyzed->front();
  CHECK(figures.kernels.empty());  // no device record, so no device time anywhere
  const SummaryTable& launches = TableOf(figures, "kernel_launch");
  REQUIRE(launches.preamble.size() == 1);
  INFO(launches.preamble[0]);
  const std::string counted = "No device times: " + std::to_string(2 * kRecorded) + " of " +
                              std::to_string(2 * kRecorded) + " kernel launches";
  CHECK(launches.preamble[0].rfind(counted, 0) == 0);
  const Row& elementwise = TopRow(launches, "elementwise_kernel");
  CHECK(CellOf(launches, elementwise, "calls").value == kRecorded);
  CHECK(CellOf(launches, elementwise, "grid").text == "[256, 1, 1]");
  CHECK(CellOf(launches, elementwise, "block").text == "[256, 1, 1]");
  CHECK(CellOf(launches, elementwise, "dynamic_shared_memory").value == 0);
  const Row& reduce = TopRow(launches, "reduce_kernel");
  CHECK(CellOf(launches, reduce, "calls").value == kRecorded);
  CHECK(CellOf(launches, reduce, "grid").text == "[64, 1, 1]");
  CHECK(CellOf(launches, reduce, "block").text == "[256, 1, 1]");
  CHECK(launches.rows.size() == 2);  // the library's launches bypass the hooks
}

}  // namespace
}  // namespace prof::analyzer::e2e
