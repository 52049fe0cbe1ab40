// Operator details in the tables: self time (Operator and Model Summary), FLOPs and
// TFLOPS, --group-by-shape, calling source lines and emit_nvtx names. Expected values are
// worked out by hand from the trace below.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "analyzer/render/text_renderer.h"
#include "analyzer/render/timeline_test_trace.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

using testing::FindRow;
using testing::FindTable;

// An operator range with details on thread 1.
void Operator(testing::TestTrace* trace, const std::string& name, uint64_t start, uint64_t end,
              const std::string& shapes, const std::string& source) {
  ChunkEncoder& encoder = trace->encoder();
  HostRangeEvent event;
  event.thread_id = 1;
  event.start_ns = start;
  event.duration_ns = end - start;
  event.name = encoder.InternString(name);
  event.kind = schema::RANGE_KIND_OPERATOR;
  event.shapes = encoder.InternString(shapes);
  event.dtypes = encoder.InternString("[float, float]");
  event.source = encoder.InternString(source);
  encoder.AddHostRange(event);
}

// Step [0, 1000) ⊃ Forward [50, 950) ⊃
//   aten::linear [100, 500) "[[32, 64], [128, 64], [128]]" (launches bias: 20 ns)
//     ⊃ aten::addmm [150, 450) "[[128], [32, 64], [64, 128]]" (launches gemm: 100 ns)
//   aten::mm [600, 700) "[[4, 8], [8, 2]]" model.py:5 (launches mm_a: 40 ns)
//   aten::mm [750, 800) "[[16, 8], [8, 2]]" model.py:6
//   NVTX "aten::mm, seq = 1, op_id = 2, sizes = [[4, 8], [8, 2]]" [820, 900) (mm_b: 50 ns)
std::string WriteDetailTrace(const std::string& name) {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  trace.Range(1, schema::RANGE_KIND_MODEL_PHASE, "Forward", 50, 950);
  Operator(&trace, "aten::linear", 100, 500, "[[32, 64], [128, 64], [128]]", "train.py:10");
  Operator(&trace, "aten::addmm", 150, 450, "[[128], [32, 64], [64, 128]]", "functional.py:3");
  trace.Launch(1, 200, 210, "gemm", 0, 7, 300, 400);
  trace.Launch(1, 460, 470, "bias", 0, 7, 500, 520);
  Operator(&trace, "aten::mm", 600, 700, "[[4, 8], [8, 2]]", "model.py:5");
  trace.Launch(1, 650, 660, "mm_a", 0, 7, 700, 740);
  Operator(&trace, "aten::mm", 750, 800, "[[16, 8], [8, 2]]", "model.py:6");
  trace.Range(1, schema::RANGE_KIND_NVTX_PUSH_POP,
              "aten::mm, seq = 1, op_id = 2, sizes = [[4, 8], [8, 2]]", 820, 900);
  trace.Launch(1, 850, 860, "mm_b", 0, 7, 900, 950);
  return trace.Write(name);
}

const Cell& CellOf(const SummaryTable& table, const Row& row, const std::string& key) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].key == key) return row.cells.at(i);
  }
  FAIL("no column " << key);
  return row.cells.at(0);
}

const Row& OperatorRow(const SummaryTable& table, const std::string& name) {
  const Row* row = FindRow(table, name);
  REQUIRE(row != nullptr);
  return *row;
}

TEST_CASE("operator self time: inclusive minus the children, in CPU and GPU") {
  const ProcessReport report = testing::Analyze(WriteDetailTrace("self.pb"));
  const SummaryTable& table = *FindTable(report, "operator");
  const Row& linear = OperatorRow(table, "aten::linear");
  CHECK(CellOf(table, linear, "cpu").stats.total_ns == 400);
  CHECK(CellOf(table, linear, "self_cpu").stats.total_ns == 100);  // 400 - addmm's 300
  CHECK(CellOf(table, linear, "gpu").stats.total_ns == 120);
  CHECK(CellOf(table, linear, "self_gpu").stats.total_ns == 20);  // bias only
  const Row& addmm = OperatorRow(table, "aten::addmm");
  CHECK(CellOf(table, addmm, "self_cpu").stats.total_ns == 300);
  CHECK(CellOf(table, addmm, "self_gpu").stats.total_ns == 100);
  // Self ratios are over the sum of self times (100 + 300 + 230), which counts no nesting.
  CHECK(CellOf(table, addmm, "self_cpu").stats.ratio == Approx(300.0 / 630));

  const SummaryTable& model = *FindTable(report, "model");
  const Row& step = OperatorRow(model, "ProfileStep");
  CHECK(CellOf(model, step, "self_cpu").stats.total_ns == 100);  // 1000 - Forward's 900
  const Row& forward = OperatorRow(model, "Forward");
  CHECK(CellOf(model, forward, "self_cpu").stats.total_ns == 900 - 400 - 100 - 50 - 80);
  CHECK(CellOf(model, forward, "gpu").stats.total_ns == 210);
  CHECK(CellOf(model, forward, "self_gpu").stats.total_ns == 0);
}

TEST_CASE("self columns are in the text only with --self; always in the table (JSON)") {
  SummaryOptions options;
  const ProcessReport plain = testing::Analyze(WriteDetailTrace("self_text.pb"), options);
  const std::string without = RenderTable(*FindTable(plain, "operator"), TimeUnit::kNanoseconds);
  CHECK(without.find("Self CPU") == std::string::npos);
  CHECK(without.find("FLOPs") != std::string::npos);
  options.self_time = true;
  const ProcessReport with = testing::Analyze(WriteDetailTrace("self_text2.pb"), options);
  CHECK(RenderTable(*FindTable(with, "operator"), TimeUnit::kNanoseconds).find("Self CPU") !=
        std::string::npos);
  CHECK(RenderTable(*FindTable(with, "model"), TimeUnit::kNanoseconds).find("Self GPU") !=
        std::string::npos);
}

TEST_CASE("FLOPs per row, TFLOPS over GPU time, emit_nvtx names merged, sources listed") {
  const ProcessReport report = testing::Analyze(WriteDetailTrace("flops.pb"));
  const SummaryTable& table = *FindTable(report, "operator");
  const Row& linear = OperatorRow(table, "aten::linear");
  CHECK(CellOf(table, linear, "flops").value == 2.0 * 32 * 64 * 128);
  CHECK(CellOf(table, linear, "tflops").value == Approx(524288.0 / 120 / 1e3));
  CHECK(CellOf(table, linear, "source").text == "train.py:10");
  const Row& mm = OperatorRow(table, "aten::mm");
  CHECK(mm.cells[1].value == 3);  // the NVTX range joins the two prof_operator_push_detail calls
  CHECK(CellOf(table, mm, "flops").value == 2.0 * 4 * 2 * 8 * 2 + 2.0 * 16 * 2 * 8);
  CHECK(CellOf(table, mm, "source").text == "model.py:5, model.py:6");
  // paddle's FLOPs printout: forward operators, FLOPS over CPU time.
  REQUIRE(!table.epilogue.empty());
  CHECK(table.epilogue[0].find("FLOPs") != std::string::npos);
  CHECK(table.epilogue[1] == "aten::linear latency: 0.000 ms, FLOPs: 524.29 K, FLOPS: 1.31 T");
}

TEST_CASE("--group-by-shape: one row per operator and input shapes") {
  SummaryOptions options;
  options.group_by_shape = true;
  options.op_detail = false;
  const ProcessReport report = testing::Analyze(WriteDetailTrace("shapes.pb"), options);
  const SummaryTable& table = *FindTable(report, "operator");
  std::vector<std::pair<std::string, std::string>> rows;
  for (const Row& row : table.rows) {
    if (row.kind != Row::Kind::kData) continue;
    rows.emplace_back(row.cells[0].text, CellOf(table, row, "shapes").text);
    if (rows.back().second == "[[4, 8], [8, 2]]") {
      CHECK(CellOf(table, row, "calls").value == 2);
      CHECK(CellOf(table, row, "flops").value == 256);
      CHECK(CellOf(table, row, "gpu").stats.total_ns == 90);
    }
  }
  CHECK(rows.size() == 4);
  CHECK(std::count(rows.begin(), rows.end(),
                   std::make_pair(std::string("aten::mm"), std::string("[[16, 8], [8, 2]]"))) == 1);
  CHECK(RenderTable(table, TimeUnit::kNanoseconds).find("Input Shapes") != std::string::npos);
}

// The rows of the operator table as "title" or "indent name gpu-total" lines.
std::vector<std::string> RowLines(const SummaryTable& table) {
  std::vector<std::string> lines;
  for (const Row& row : table.rows) {
    if (row.kind == Row::Kind::kTitle) lines.push_back(row.title);
    if (row.kind != Row::Kind::kData) continue;
    lines.push_back(std::to_string(row.indent) + " " + row.cells[0].text + " " +
                    std::to_string(static_cast<int>(CellOf(table, row, "gpu").stats.total_ns)));
  }
  return lines;
}

// The rows are found once per change of operator or launching range (operator_summary.cc):
// records that alternate between two threads' operators, and between an operator and its
// inner range, must still each land in their own row.
TEST_CASE("operator rows: records alternating between operators and ranges each find theirs") {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  for (uint64_t thread : {1, 2}) {
    trace.Range(thread, schema::RANGE_KIND_OPERATOR, "aten::conv", 100, 400);
    trace.Range(thread, schema::RANGE_KIND_USER, "inner", 110, 300);
  }
  // Launches in file order (one stream, so the records keep it): thread 1's inner range,
  // thread 2's inner range, thread 1's operator itself, and again.
  trace.Launch(1, 120, 125, "k", 0, 7, 500, 510);  // 10 ns
  trace.Launch(2, 121, 126, "k", 0, 7, 510, 530);  // 20 ns
  trace.Launch(1, 310, 315, "k", 0, 7, 530, 535);  // 5 ns, the operator's own
  trace.Launch(1, 130, 135, "k", 0, 7, 535, 565);  // 30 ns
  trace.Launch(2, 131, 136, "k", 0, 7, 565, 605);  // 40 ns
  trace.Launch(1, 320, 325, "k", 0, 7, 605, 612);  // 7 ns, the operator's own
  SummaryOptions options;
  options.thread_sep = true;
  const ProcessReport report = testing::Analyze(trace.Write("alternating.pb"), options);
  // Per thread: the operator (all its device time), its inner range with the inner
  // range's kernels, then the operator's own kernels.
  CHECK(RowLines(*FindTable(report, "operator")) ==
        std::vector<std::string>{"Thread: 1", "0 aten::conv 52", "2 inner 40", "4 k 40", "2 k 12",
                                 "Thread: 2", "0 aten::conv 60", "2 inner 60", "4 k 60"});
}

TEST_CASE("Chrome export: operator ranges carry shapes, dtypes and source as args") {
  const TraceModel model = testing::LoadOrDie(WriteDetailTrace("chrome_detail.pb"));
  const std::optional<std::string> json = testing::ChromeJsonOf(model, "chrome_detail.json");
  REQUIRE(json.has_value());
  CHECK(json->find("\"args\":{\"Input Dims\":\"[[16, 8], [8, 2]]\",\"Input type\":"
                   "\"[float, float]\",\"Source\":\"model.py:6\"}") != std::string::npos);
  // The emit_nvtx range is named by its operator, its sizes kept as Input Dims.
  CHECK(json->find("\"name\":\"aten::mm, seq") == std::string::npos);
}

}  // namespace
}  // namespace prof::analyzer
