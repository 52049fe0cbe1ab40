// The report's per-rank figures from hand-built traces, against the figures worked out by
// hand in analyzer/testing/scenarios.cc (not from the code under test).
#include "analyzer/report/rank_collector.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "analyzer/read/trace_file_loader.h"
#include "analyzer/report/figures_json.h"
#include "analyzer/report/report_scenario.h"
#include "analyzer/report/step_figures.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/scenarios.h"
#include "analyzer/testing/sliced_window.h"
#include "analyzer/testing/synthetic_trace.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer::report {
namespace {

RankFigures Collect(const std::string& path) {
  RankCollector collector;
  collector.AddWindow(analyzer::testing::LoadOrDie(path));
  return std::move(collector).Finish();
}

// The report's figures (as the HTML page embeds them) of the window at `path`, read whole
// or in slices (every file sliced, a segment per chunk); `slices` counts the windows.
std::string FiguresOf(const std::string& path, bool sliced, size_t* slices = nullptr) {
  RankCollector collector;
  size_t windows = 0;
  if (sliced) {
    const absl::Status status =
        ReadTraceFileInSlices(path, {0, 1}, nullptr, [&](TraceModel slice) {
          ++windows;
          collector.AddWindow(std::move(slice));
        });
    REQUIRE(status.ok());
  } else {
    collector.AddWindow(analyzer::testing::LoadOrDie(path));
    ++windows;
  }
  if (slices != nullptr) *slices = windows;
  std::vector<RankFigures> ranks;
  ranks.push_back(std::move(collector).Finish());
  return FiguresJson(ranks, {});
}

TEST_CASE("a window read in slices gives the report's figures of a whole read") {
  analyzer::testing::TestTrace trace(0);
  analyzer::testing::AddTwelveSteps(false, &trace);
  const std::string twelve = trace.Write("report_sliced_twelve.pb");
  size_t slices = 0;
  CHECK(FiguresOf(twelve, true, &slices) == FiguresOf(twelve, false));
  CHECK(slices >= 4);
  const std::string synthetic = analyzer::testing::TempPath("report_sliced_synthetic.pb");
  REQUIRE(WriteSyntheticTrace(synthetic, 300000) > 0);
  CHECK(FiguresOf(synthetic, true, &slices) == FiguresOf(synthetic, false));
  CHECK(slices >= 3);
}

TEST_CASE("a step's phases, Others and GPU busy time") {
  const RankFigures figures = Collect(analyzer::testing::WriteTrainingStepTrace("report_step.pb"));
  REQUIRE(figures.steps.size() == 1);
  const StepFigures& step = figures.steps[0];
  CHECK(step.number == 1);
  CHECK(step.duration_ns == 1000);
  // Dataloader [0,100), Forward [100,400), Backward [400,700), Optimization [700,800).
  CHECK(step.phase_ns == std::array<uint64_t, kPhaseCount>{100, 300, 300, 100, 200});
  // Device records inside [0,1000): [200,350) [600,650) [900,950); "late" is outside.
  CHECK(step.gpu_busy_ns == 250);
  CHECK(figures.gpu_utilization.at("GPU0") == Approx(0.25));
}

TEST_CASE("kernels and operators keep whole names, with the range tree's GPU time") {
  const RankFigures figures =
      Collect(analyzer::testing::WriteRankTrace("report_rank.pb", 0, 10000000));
  // The gemm's mangled name is demangled whole; nothing is shortened.
  bool found_nccl = false;
  for (const auto& [name, item] : figures.kernels) {
    if (name.find("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)") !=
        std::string::npos) {
      found_nccl = true;
      CHECK(item.calls == 12);
      CHECK(item.gpu_ns == 12 * 1000000);
    }
  }
  CHECK(found_nccl);
  const RankFigures step_trace =
      Collect(analyzer::testing::WriteTrainingStepTrace("report_ops.pb"));
  // matmul: 2 calls, GPU 200 + 50; linear: GPU 200 (scenarios.cc).
  CHECK(step_trace.operators.at("matmul").calls == 2);
  CHECK(step_trace.operators.at("matmul").gpu_ns == 250);
  CHECK(step_trace.operators.at("matmul").cpu_ns == 250);
  CHECK(step_trace.operators.at("linear").gpu_ns == 200);
}

TEST_CASE("the rank trace's memory: 1 MiB per step, the last one never freed") {
  const RankFigures figures =
      Collect(analyzer::testing::WriteRankTrace("report_memory.pb", 1, 10000000));
  REQUIRE(figures.steps.size() == 12);
  const MemoryPlaceFlow& gpu = figures.memory.at("GPU0");
  CHECK(gpu.allocations == 12);
  CHECK(gpu.peak_bytes == (1u << 20));
  REQUIRE(gpu.step_peak_bytes.size() == 12);
  for (size_t step = 0; step < 12; ++step) {
    CHECK(gpu.step_peak_bytes[step] == (1u << 20));
    CHECK(gpu.step_end_bytes[step] == (step == 11 ? (1u << 20) : 0));
  }
  REQUIRE(gpu.blocks.size() == 12);
  CHECK(gpu.blocks.back().live_at_end);
  CHECK_FALSE(gpu.blocks.front().live_at_end);
  // Never two blocks live at once: every block starts at offset 0.
  for (const MemoryBlock& block : gpu.blocks) CHECK(block.offset == 0);
  // Allocated at step start + 100 ns, freed at 90 % of the 10 ms step.
  CHECK(gpu.blocks.front().end_ns - gpu.blocks.front().start_ns == 9000000 - 100);
}

constexpr uint64_t kMiB = 1 << 20;

// Rank `rank` of the 3-rank report scenario (report_scenario.h gives the hand-worked values).
RankFigures ScenarioRank(int rank) {
  const std::string tmp = std::getenv("TEST_TMPDIR");
  std::filesystem::create_directories(tmp + "/scenario");
  const std::vector<std::string> paths = report::testing::WriteReportScenario(tmp + "/scenario", 3);
  setenv("TEST_TMPDIR", tmp.c_str(), 1);  // WriteReportScenario moved it
  return Collect(paths[rank]);
}

TEST_CASE("allocator samples and host RSS per step, from the report scenario") {
  const RankFigures figures = ScenarioRank(2);
  REQUIRE(figures.steps.size() == report::testing::kScenarioSteps);
  REQUIRE(figures.sampled_memory.size() == 2);
  const std::vector<SampledStep>& gpu = figures.sampled_memory.at("GPU0");
  const std::vector<SampledStep>& host = figures.sampled_memory.at("Host");
  REQUIRE(gpu.size() == report::testing::kScenarioSteps);
  REQUIRE(host.size() == report::testing::kScenarioSteps);
  // Step 5 (index 5): 448 MiB of weights + 6 steps of 8 MiB leaked; peak 784 + 5 * 8.
  CHECK(gpu[5].recorded);
  CHECK(gpu[5].allocated == 496 * kMiB);
  CHECK(gpu[5].reserved == 1024 * kMiB);
  CHECK(gpu[5].peak == 824 * kMiB);
  CHECK(gpu[12].reserved == 1280 * kMiB);
  CHECK(gpu[19].allocated == (448 + 160) * kMiB);
  // The host reading stamped with a step's end belongs to that step, the last one included.
  CHECK(host[0].recorded);
  CHECK(host[0].rss == 3072 * kMiB);
  CHECK(host[19].recorded);
  CHECK(host[19].rss == (3072 + 38) * kMiB);
  // Rank 0 leaks nothing.
  CHECK(ScenarioRank(0).sampled_memory.at("GPU0")[19].allocated == 448 * kMiB);
}

TEST_CASE("steps without samples are not recorded; samples outside steps are dropped") {
  analyzer::testing::TestTrace trace(0);
  for (int step = 1; step <= 3; ++step) trace.Step(1, step * 1000, step * 1000 + 1000, step);
  trace.encoder().AddMemorySample({500, 0, 1, 2, 3, 0});      // before the first step
  trace.encoder().AddMemorySample({1100, 0, 10, 20, 30, 0});  // step 1, overwritten below
  trace.encoder().AddMemorySample({1900, 0, 11, 21, 31, 0});  // step 1's last
  trace.encoder().AddMemorySample({4000, -1, 0, 0, 0, 77});   // step 3's end boundary
  const RankFigures figures = Collect(trace.Write("report_samples.pb"));
  const std::vector<SampledStep>& gpu = figures.sampled_memory.at("GPU0");
  REQUIRE(gpu.size() == 3);
  CHECK(gpu[0].recorded);
  CHECK(gpu[0].allocated == 11);
  CHECK(gpu[0].reserved == 21);
  CHECK(gpu[0].peak == 31);
  CHECK_FALSE(gpu[1].recorded);
  CHECK_FALSE(gpu[2].recorded);
  const std::vector<SampledStep>& host = figures.sampled_memory.at("Host");
  REQUIRE(host.size() == 3);
  CHECK_FALSE(host[0].recorded);
  CHECK(host[2].recorded);
  CHECK(host[2].rss == 77);
  // The page's data: null where a step had no sample of the place.
  CHECK_THAT(
      FiguresJson({figures}, {}),
      Catch::Contains(
          "\"sampled_memory\":{\"GPU0\":{\"allocated\":[11,null,null],\"reserved\":[21,null,null],"
          "\"peak\":[31,null,null]},\"Host\":{\"rss\":[null,null,77]}}"));
  // No sample at all: nothing sampled, the cudaMalloc figures stay.
  CHECK(Collect(analyzer::testing::WriteTrainingStepTrace("report_nosamples.pb"))
            .sampled_memory.empty());
}

TEST_CASE("losses reach the report's quality figures") {
  analyzer::testing::TestTrace trace(0);
  trace.Step(1, 0, 1000, 1);
  trace.Loss(schema::LOSS_KIND_CUPTI_DROPPED, 7);
  const RankFigures figures = Collect(trace.Write("report_loss.pb"));
  REQUIRE(figures.quality.losses.size() == 1);
  CHECK(figures.quality.losses.begin()->second == 7);
}

TEST_CASE("covered length inside a window") {
  const IntervalList merged = {{0, 10}, {20, 30}, {40, 50}};
  CHECK(CoveredLength(merged, 5, 45) == 5 + 10 + 5);
  CHECK(CoveredLength(merged, 10, 20) == 0);
  CHECK(CoveredLength(merged, 0, 100) == 30);
  CHECK(CoveredLength({}, 0, 100) == 0);
}

}  // namespace
}  // namespace prof::analyzer::report
