#include <catch2/catch.hpp>
#include <vector>

#include "analyzer/summary/intervals.h"
#include "analyzer/summary/named_items.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/scenarios.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

using testing::FindRow;
using testing::FindTable;

const Row& RowOf(const ProcessReport& report, const std::string& table, const std::string& name) {
  const SummaryTable* found = FindTable(report, table);
  REQUIRE(found != nullptr);
  const Row* row = FindRow(*found, name);
  REQUIRE(row != nullptr);
  return *row;
}

std::vector<std::string> FirstColumn(const SummaryTable& table) {
  std::vector<std::string> names;
  for (const Row& row : table.rows) {
    if (row.kind == Row::Kind::kData) names.push_back(row.cells[0].text);
  }
  return names;
}

TEST_CASE("interval merging: touching ranges merge, union and intersection") {
  const IntervalList merged = MergeIntervals({{5, 15}, {20, 50}, {15, 18}, {30, 40}});
  REQUIRE(merged.size() == 2);
  CHECK(merged[0] == Interval{5, 18});
  CHECK(TotalLength(merged) == 43);
  CHECK(TotalLength(UniteIntervals({{0, 10}}, {{10, 20}, {30, 40}})) == 30);
  const IntervalList both = IntersectIntervals({{0, 100}}, {{10, 20}, {90, 120}});
  CHECK(TotalLength(both) == 20);
}

TEST_CASE("clipping to a window in place gives what intersection gives, also across gaps") {
  // One window: each interval keeps at most one piece, written over itself.
  const IntervalList window = {{10, 100}};
  const IntervalList clipped = ClipIntervals({{0, 5}, {8, 20}, {30, 40}, {95, 120}}, window);
  CHECK(clipped == IntervalList{{10, 20}, {30, 40}, {95, 100}});
  // The first interval spans the window's gap [20, 30) and [50, 60): three pieces from one
  // interval, more than the storage read so far holds.
  const IntervalList gaps = {{0, 20}, {30, 50}, {60, 70}};
  const IntervalList intervals = {{5, 65}, {68, 90}};
  const IntervalList expected = {{5, 20}, {30, 50}, {60, 65}, {68, 70}};
  CHECK(IntersectIntervals(intervals, gaps) == expected);
  CHECK(ClipIntervals(intervals, gaps) == expected);
  CHECK(ClipIntervals({}, gaps).empty());
  CHECK(ClipIntervals(intervals, {}).empty());
}

TEST_CASE("device and overview: unions across threads and streams, clipped to the step") {
  const ProcessReport report = testing::Analyze(testing::WriteTrainingStepTrace("overview.pb"));
  CHECK(RowOf(report, "device", "GPU0").cells[1].value == Approx(0.25));
  const SummaryTable& overview = *FindTable(report, "overview");
  CHECK(FirstColumn(overview) == std::vector<std::string>{"ProfileStep", "Operator", "Forward",
                                                          "Backward", "UserDefined", "Dataloader",
                                                          "Optimization", "CudaRuntime", "Kernel"});
  CHECK(FindRow(overview, "Operator")->cells[2].value == 330);  // [120,350] + thread 2 [500,600]
  CHECK(FindRow(overview, "Operator")->cells[1].value == 3);
  CHECK(FindRow(overview, "CudaRuntime")->cells[2].value == 24);  // the late call is outside
  CHECK(FindRow(overview, "Kernel")->cells[1].value == 4);
  CHECK(FindRow(overview, "Kernel")->cells[2].value == 250);
  CHECK(FindRow(overview, "Kernel")->cells[3].value == Approx(0.25));
}

TEST_CASE("device: CPU(Process) and CPU(System) from the window's open and close readings") {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 1);
  trace.Launch(1, 100, 110, "gemm", 0, 7, 200, 300);
  auto reading = [](uint64_t time, uint64_t process_cpu, uint64_t busy, uint64_t idle) {
    trace::CpuUsage usage;
    usage.set_host_monotonic_ns(time);
    usage.set_process_cpu_ns(process_cpu);
    usage.set_system_known(true);
    usage.set_system_busy_ticks(busy);
    usage.set_system_idle_ticks(idle);
    return usage;
  };
  *trace.header().add_cpu_usage() = reading(0, 5000, 100, 900);
  const trace::CpuUsage close = reading(2000, 8000, 160, 1080);  // at the close
  trace.encoder().AddCpuUsage(CpuUsageValue{close.host_monotonic_ns(), close.process_cpu_ns(),
                                            close.system_busy_ticks(), close.system_idle_ticks(),
                                            close.system_known()});
  const ProcessReport report = testing::Analyze(trace.Write("cpu.pb"));
  const SummaryTable& device = *FindTable(report, "device");
  CHECK(FirstColumn(device) == std::vector<std::string>{"CPU(Process)", "CPU(System)", "GPU0"});
  CHECK(RowOf(report, "device", "CPU(Process)").cells[1].value ==
        Approx(3000.0 / 2000));  // 1.5 cores busy
  CHECK(RowOf(report, "device", "CPU(System)").cells[1].value == Approx(60.0 / 240));
  CHECK(RowOf(report, "device", "GPU0").cells[1].value == Approx(0.1));
}

TEST_CASE("model: top-most phases, GPU over the step's kernels, Others row") {
  const ProcessReport report = testing::Analyze(testing::WriteTrainingStepTrace("model.pb"));
  const Row& step = RowOf(report, "model", "ProfileStep");
  CHECK(step.cells[2].stats.total_ns == 1000);
  CHECK(step.cells[3].stats.total_ns == 250);
  const Row& forward = RowOf(report, "model", "Forward");
  CHECK(forward.indent == 2);
  CHECK(forward.cells[2].stats.ratio == Approx(0.30));
  CHECK(forward.cells[3].stats.total_ns == 200);
  CHECK(forward.cells[3].stats.ratio == Approx(0.80));
  // Thread 2 has no phase of its own: its launch during Backward is Backward's (the way
  // PyTorch's autograd threads launch backward kernels).
  CHECK(RowOf(report, "model", "Backward").cells[3].stats.total_ns == 50);
  const Row& others = RowOf(report, "model", "Others");
  CHECK(others.cells[1].kind == Cell::Kind::kDash);
  CHECK(others.cells[2].stats.total_ns == 200);
  CHECK(others.cells[2].stats.only_total);
  CHECK(others.cells[3].stats.total_ns == 0);
  CHECK(others.cells[3].stats.ratio == Approx(0.0));
}

TEST_CASE("operator: nested operators, inner rows and launched kernels") {
  SummaryOptions options;
  const ProcessReport report =
      testing::Analyze(testing::WriteTrainingStepTrace("operator.pb"), options);
  const SummaryTable& table = *FindTable(report, "operator");
  CHECK(FirstColumn(table) ==
        std::vector<std::string>{"matmul", "matmul::compute", "gemm", "gemm", "add", "linear"});
  const Row& matmul = *FindRow(table, "matmul");
  CHECK(matmul.cells[1].value == 2);
  CHECK(matmul.cells[2].stats.total_ns == 250);
  CHECK(matmul.cells[2].stats.max_ns == 150);
  CHECK(matmul.cells[2].stats.ratio == Approx(250.0 / 480));  // the group sum counts linear too
  CHECK(matmul.cells[3].stats.total_ns == 250);
  CHECK(matmul.cells[3].stats.ratio == Approx(250.0 / 450));
  const Row& inner = *FindRow(table, "matmul::compute");
  CHECK(inner.indent == 2);
  CHECK(inner.cells[2].stats.ratio == Approx(130.0 / 250));
  CHECK(inner.cells[3].stats.total_ns == 100);
  CHECK(table.rows[3].indent == 4);  // gemm under the inner row
  CHECK(table.rows[3].cells[3].stats.ratio == Approx(1.0));
  // Op-level records in file order (device records are grouped by stream): thread 2's
  // gemm on stream 7, then add on stream 8.
  CHECK(table.rows[4].cells[3].stats.ratio == Approx(50.0 / 250));
  CHECK(table.rows[5].cells[0].text == "add");
  CHECK(table.rows[5].cells[3].stats.ratio == Approx(100.0 / 250));
  CHECK(FindRow(table, "linear")->cells[3].stats.total_ns == 200);

  options.op_detail = false;
  options.sorted_by = SortKey::kCpuMin;
  const ProcessReport brief =
      testing::Analyze(testing::WriteTrainingStepTrace("operator2.pb"), options);
  CHECK(FirstColumn(*FindTable(brief, "operator")) == std::vector<std::string>{"matmul", "linear"});
  options.thread_sep = true;
  const ProcessReport threads =
      testing::Analyze(testing::WriteTrainingStepTrace("operator3.pb"), options);
  CHECK(FindTable(threads, "operator")->rows[0].title == "Thread: 1");
}

TEST_CASE("kernel: every kernel, also unmatched and outside steps, over all kernel time") {
  SummaryOptions options;
  options.sorted_by = SortKey::kGpuMax;
  const ProcessReport report =
      testing::Analyze(testing::WriteTrainingStepTrace("kernel.pb"), options);
  const SummaryTable& table = *FindTable(report, "kernel");
  CHECK(FirstColumn(table) ==
        std::vector<std::string>{"gemm", "late", "add", "orphan"});  // max ties: file order
  CHECK(FindRow(table, "gemm")->cells[2].stats.total_ns == 150);
  CHECK(FindRow(table, "gemm")->cells[2].stats.ratio == Approx(150.0 / 400));
  CHECK(KernelDisplayName("void foo<int>(float*, int)") == "void foo<int>");
  CHECK(KernelDisplayName("bar(int)") == "bar(int)");
  CHECK(Shorten(std::string(100, 'x'), 90).size() == 90);
}

TEST_CASE("data quality names the unmatched kernel; user ranges feed UserDefined") {
  const ProcessReport report = testing::Analyze(testing::WriteTrainingStepTrace("quality.pb"));
  CHECK(RowOf(report, "data_quality", "unmatched correlation ids: Kernel").cells[1].value == 1);
  CHECK(RowOf(report, "userdefined", "matmul::compute").cells[2].stats.ratio == Approx(0.13));
  CHECK(FindTable(report, "memory_manipulation") == nullptr);
  CHECK(FindTable(report, "distributed") == nullptr);
}

TEST_CASE("data quality lists the steps whose records the agent lost, by kind") {
  testing::TestTrace trace;
  for (int step = 0; step < 3; ++step) trace.Step(1, step * 1000, (step + 1) * 1000, step, 32);
  trace.Loss(schema::LOSS_KIND_HOST_BUFFER_FULL, 40, 1);
  trace.Loss(schema::LOSS_KIND_HOST_RANGE_DROPPED, 2, 1);
  trace.NextChunk();
  trace.Loss(schema::LOSS_KIND_HOST_BUFFER_FULL, 5, 1);  // a later chunk adds to step 1
  trace.Loss(schema::LOSS_KIND_HOST_BUFFER_FULL, 7, 2);
  trace.Loss(schema::LOSS_KIND_CUPTI_DROPPED, 3);  // no step: only in the totals
  const ProcessReport report = testing::Analyze(trace.Write("step_losses.pb"));
  const Row& step1 = RowOf(report, "data_quality", "incomplete step 1");
  CHECK(step1.cells[1].value == 47);
  CHECK(step1.cells[2].text.find("LOSS_KIND_HOST_BUFFER_FULL 45") != std::string::npos);
  CHECK(step1.cells[2].text.find("LOSS_KIND_HOST_RANGE_DROPPED 2") != std::string::npos);
  CHECK(RowOf(report, "data_quality", "incomplete step 2").cells[1].value == 7);
  CHECK(FindRow(*FindTable(report, "data_quality"), "incomplete step 0") == nullptr);
  CHECK(RowOf(report, "data_quality", "records lost by the agent: LOSS_KIND_HOST_BUFFER_FULL")
            .cells[1]
            .value == 52);
}

TEST_CASE("a trace without steps prints what it can and never divides by zero") {
  testing::TestTrace trace;
  trace.Launch(1, 0, 10, "k", 0, 7, 20, 30);
  const ProcessReport report = testing::Analyze(trace.Write("stepless.pb"));
  CHECK(FindTable(report, "perf") == nullptr);
  CHECK(FindTable(report, "model") == nullptr);
  CHECK(RowOf(report, "kernel", "k").cells[2].stats.ratio == Approx(1.0));
  CHECK(RowOf(report, "device", "GPU0").cells[1].value == Approx(10.0 / 30));  // T = the span
  testing::TestTrace empty;
  CHECK(testing::Analyze(empty.Write("nothing.pb")).tables.empty());
}

TEST_CASE("memory samples: allocator figures at each step's end, host RSS, and the peak's step") {
  testing::TestTrace trace;
  for (int step = 1; step <= 3; ++step) trace.Step(1, (step - 1) * 1000, step * 1000, step);
  auto sample = [&](uint64_t time, int32_t device, uint64_t allocated, uint64_t reserved,
                    uint64_t peak, uint64_t rss) {
    trace.encoder().AddMemorySample({time, device, allocated, reserved, peak, rss});
  };
  sample(990, 0, 100, 400, 150, 0);   // step 1's end (before prof_step)
  sample(1001, 0, 100, 400, 150, 0);  // step 2's start (after it): overwritten by its end
  sample(1990, 0, 300, 800, 500, 0);  // the peak rises to 500 in step 2
  sample(2990, 0, 200, 800, 500, 0);
  sample(1000, -1, 0, 0, 0, 5000);  // host RSS, stamped with the boundary ending step 1
  sample(2000, -1, 0, 0, 0, 7000);
  sample(3000, -1, 0, 0, 0, 6000);
  sample(9000, 0, 999, 999, 999, 0);  // after the last step: under no step
  const ProcessReport report = testing::Analyze(trace.Write("memory_samples.pb"));
  const SummaryTable* steps = FindTable(report, "memory_allocator_steps");
  REQUIRE(steps != nullptr);
  std::vector<std::string> lines;
  for (const Row& row : steps->rows) {
    if (row.kind != Row::Kind::kData) continue;
    std::string line = row.cells[0].text + " " + row.cells[1].text;
    for (int column = 2; column < 6; ++column) {
      line += row.cells[column].kind == Cell::Kind::kDash
                  ? " -"
                  : " " + std::to_string(static_cast<int64_t>(row.cells[column].value));
    }
    lines.push_back(line);
  }
  CHECK(lines == std::vector<std::string>{
                     "ProfileStep#1 Host - - - 5000", "ProfileStep#1 GPU0 100 400 150 -",
                     "ProfileStep#2 Host - - - 7000", "ProfileStep#2 GPU0 300 800 500 -",
                     "ProfileStep#3 Host - - - 6000", "ProfileStep#3 GPU0 200 800 500 -"});
  const Row& gpu = RowOf(report, "memory_allocator_peak", "GPU0");
  CHECK(gpu.cells[1].value == 500);
  CHECK(gpu.cells[2].text == "ProfileStep#2");
  const Row& host = RowOf(report, "memory_allocator_peak", "Host");
  CHECK(host.cells[1].value == 7000);
  CHECK(host.cells[2].text == "ProfileStep#2");
}

TEST_CASE("memory samples: a peak already there at the first sample may be older") {
  testing::TestTrace trace;
  trace.Step(1, 0, 1000, 4);
  trace.Step(1, 1000, 2000, 5);
  trace.encoder().AddMemorySample({500, 1, 10, 20, 900, 0});
  trace.encoder().AddMemorySample({1500, 1, 10, 20, 900, 0});
  const ProcessReport report = testing::Analyze(trace.Write("memory_old_peak.pb"));
  CHECK(RowOf(report, "memory_allocator_peak", "GPU1").cells[2].text == "ProfileStep#4 or before");
  testing::TestTrace none;
  none.Step(1, 0, 1000, 1);
  CHECK(FindTable(testing::Analyze(none.Write("memory_no_samples.pb")), "memory_allocator_steps") ==
        nullptr);
}

TEST_CASE("Memory Manipulation: a row per copy call and direction, device time by correlation") {
  testing::TestTrace trace;
  trace.Step(1, 0, 10000, 1);
  auto copy_call = [&](const char* name, uint64_t start, uint64_t end, uint64_t bytes,
                       schema::CopyKind kind) {
    ApiCallEvent call;
    call.thread_id = 1;
    call.start_ns = start;
    call.duration_ns = end - start;
    call.name = trace.encoder().InternString(name);
    call.correlation_id = 5000 + start;
    call.bytes = bytes;
    call.copy_kind = kind;
    trace.encoder().AddApiCall(call);
    return call.correlation_id;
  };
  // cudaMemcpyAsync HtoD twice: 1000 B in 100 ns and 3000 B in 300 ns on the device.
  trace.Memcpy(0, 7, 200, 300, 1000, schema::COPY_KIND_HOST_TO_DEVICE,
               copy_call("cudaMemcpyAsync", 100, 110, 1000, schema::COPY_KIND_HOST_TO_DEVICE));
  trace.Memcpy(0, 7, 400, 700, 3000, schema::COPY_KIND_HOST_TO_DEVICE,
               copy_call("cudaMemcpyAsync", 120, 150, 3000, schema::COPY_KIND_HOST_TO_DEVICE));
  // cudaMemcpyDefault: the device record names the direction the call could not.
  trace.Memcpy(0, 7, 800, 1000, 2000, schema::COPY_KIND_DEVICE_TO_HOST,
               copy_call("cudaMemcpy", 160, 1100, 2000, schema::COPY_KIND_DEFAULT));
  // No device record (CUPTI off): the call's own kind and bytes, no GB/s.
  copy_call("cudaMemcpy", 1200, 1300, 4096, schema::COPY_KIND_DEVICE_TO_DEVICE);
  trace.Memset(0, 7, 1400, 1450,
               copy_call("cudaMemsetAsync", 1350, 1360, 0, schema::COPY_KIND_UNKNOWN));
  trace.ApiCall(1, "cudaLaunchKernel", 1500, 1510);
  const ProcessReport report = testing::Analyze(trace.Write("copies.pb"));
  const SummaryTable& table = *FindTable(report, "memory_manipulation");
  CHECK(FirstColumn(table) == std::vector<std::string>{"cudaMemcpy DtoH", "cudaMemcpy DtoD",
                                                       "cudaMemcpyAsync HtoD", "cudaMemsetAsync"});
  const Row& async = RowOf(report, "memory_manipulation", "cudaMemcpyAsync HtoD");
  CHECK(async.cells[1].value == 2);
  CHECK(async.cells[2].stats.total_ns == 40);   // host: 10 + 30
  CHECK(async.cells[3].stats.total_ns == 400);  // device: 100 + 300
  CHECK(async.cells[4].value == 4000);
  CHECK(async.cells[5].value == Approx(10.0));  // 4000 B / 400 ns = 10 GB/s
  const Row& plain = RowOf(report, "memory_manipulation", "cudaMemcpy DtoD");
  CHECK(plain.cells[4].value == 4096);
  CHECK(plain.cells[5].kind == Cell::Kind::kDash);
  CHECK(RowOf(report, "memory_manipulation", "cudaMemcpy DtoH").cells[5].value == Approx(10.0));
  CHECK(RowOf(report, "memory_manipulation", "cudaMemsetAsync").cells[3].stats.total_ns == 50);
}

TEST_CASE("Memory Manipulation: device records out of call order, past 2048 calls") {
  // 3000 cudaMemcpy(Default) calls whose device records run in reverse call order, so the
  // records are grouped by call past one 11-bit digit of the call index; even calls copy
  // HtoD, odd calls DtoH, each 100 B in 10 ns. The last call has two records, HtoD (5 ns)
  // then DtoH (7 ns): its row is named by the last, DtoH.
  testing::TestTrace trace;
  trace.Step(1, 0, 1000000, 1);
  constexpr int kCalls = 3000;
  std::vector<uint64_t> correlation(kCalls + 1);
  for (int i = 0; i <= kCalls; ++i)
    correlation[i] = trace.ApiCall(1, "cudaMemcpy", 100 + 10 * i, 105 + 10 * i);
  for (int i = kCalls - 1; i >= 0; --i) {
    const uint64_t start = 500000 - 100 * i;
    trace.Memcpy(0, 7, start, start + 10, 100,
                 i % 2 ? schema::COPY_KIND_DEVICE_TO_HOST : schema::COPY_KIND_HOST_TO_DEVICE,
                 correlation[i]);
  }
  trace.Memcpy(0, 7, 600000, 600005, 100, schema::COPY_KIND_HOST_TO_DEVICE, correlation[kCalls]);
  trace.Memcpy(0, 7, 600010, 600017, 100, schema::COPY_KIND_DEVICE_TO_HOST, correlation[kCalls]);
  const ProcessReport report = testing::Analyze(trace.Write("copies_out_of_order.pb"));
  const Row& to_device = RowOf(report, "memory_manipulation", "cudaMemcpy HtoD");
  CHECK(to_device.cells[1].value == 1500);
  CHECK(to_device.cells[3].stats.total_ns == 15000);
  CHECK(to_device.cells[4].value == 150000);
  const Row& to_host = RowOf(report, "memory_manipulation", "cudaMemcpy DtoH");
  CHECK(to_host.cells[1].value == 1501);
  CHECK(to_host.cells[3].stats.total_ns == 15000 + 12);
  CHECK(to_host.cells[4].value == 150000 + 200);
}

TEST_CASE("Memory Manipulation: records of calls that do not copy are not counted") {
  // A copy record answering a cudaLaunchKernel (a correlation the table does not join) sits
  // between the two records of cudaMemcpyAsync, whose call comes after the launch; a
  // cudaMemcpy without a record follows. Only the copy calls make rows: the async one
  // with both its records (10 + 20 ns, 100 + 300 B), the plain one with its own bytes.
  testing::TestTrace trace;
  trace.Step(1, 0, 10000, 1);
  const uint64_t launch = trace.ApiCall(1, "cudaLaunchKernel", 100, 110);
  const uint64_t async = trace.ApiCall(1, "cudaMemcpyAsync", 120, 130);
  trace.ApiCall(1, "cudaMemcpy", 140, 190);
  trace.Memcpy(0, 7, 200, 210, 100, schema::COPY_KIND_HOST_TO_DEVICE, async);
  trace.Memcpy(0, 7, 220, 225, 5000, schema::COPY_KIND_DEVICE_TO_HOST, launch);
  trace.Memcpy(0, 7, 230, 250, 300, schema::COPY_KIND_HOST_TO_DEVICE, async);
  const ProcessReport report = testing::Analyze(trace.Write("copies_of_other_calls.pb"));
  const SummaryTable& table = *FindTable(report, "memory_manipulation");
  CHECK(FirstColumn(table) ==
        std::vector<std::string>{"cudaMemcpy", "cudaMemcpyAsync HtoD"});
  const Row& copied = RowOf(report, "memory_manipulation", "cudaMemcpyAsync HtoD");
  CHECK(copied.cells[1].value == 1);
  CHECK(copied.cells[2].stats.total_ns == 10);
  CHECK(copied.cells[3].stats.total_ns == 30);
  CHECK(copied.cells[4].value == 400);
  const Row& plain = RowOf(report, "memory_manipulation", "cudaMemcpy");
  CHECK(plain.cells[2].stats.total_ns == 50);
  CHECK(plain.cells[3].stats.total_ns == 0);
  CHECK(plain.cells[5].kind == Cell::Kind::kDash);
  CHECK(plain.cells[4].value == 0);
}

// Steps 0 (from the program's start: 5000 ns, a phase and a kernel), 1 and 2 of 1000 ns.
std::string WriteSetupTrace(const std::string& name, const char* schedule) {
  testing::TestTrace trace;
  if (schedule) (*trace.header().mutable_config())["PROF_SCHEDULE"] = schedule;
  trace.Step(1, 0, 5000, 0);
  trace.Step(1, 5000, 6000, 1);
  trace.Step(1, 6000, 7000, 2);
  trace.Range(1, schema::RANGE_KIND_MODEL_PHASE, "Forward", 4000, 4500);
  trace.Range(1, schema::RANGE_KIND_MODEL_PHASE, "Forward", 5100, 5600);
  trace.Range(1, schema::RANGE_KIND_MODEL_PHASE, "Forward", 6100, 6600);
  trace.Launch(1, 4100, 4110, "init", 0, 7, 4200, 4900);
  trace.Launch(1, 5200, 5210, "gemm", 0, 7, 5300, 5400);
  trace.Launch(1, 6200, 6210, "gemm", 0, 7, 6300, 6400);
  return trace.Write(name);
}

TEST_CASE("set-up: with no schedule, step 0 is shown apart from the per-step statistics") {
  const ProcessReport report = testing::Analyze(WriteSetupTrace("setup.pb", "every step"));
  const Row& step = RowOf(report, "model", "ProfileStep");
  CHECK(step.cells[1].value == 2);  // steps 1 and 2 only
  CHECK(step.cells[2].stats.total_ns == 2000);
  CHECK(step.cells[2].stats.max_ns == 1000);   // not step 0's 5000
  CHECK(step.cells[3].stats.total_ns == 200);  // gemm twice, not init
  const Row& forward = RowOf(report, "model", "Forward");
  CHECK(forward.cells[1].value == 2);  // set-up's Forward left out
  CHECK(forward.cells[2].stats.ratio == Approx(1000.0 / 2000));
  const Row& setup = RowOf(report, "setup", "ProfileStep#0 (set-up)");
  CHECK(setup.cells[1].value == 5000);
  CHECK(setup.cells[2].value == 1);
  CHECK(setup.cells[3].value == 700);
  CHECK(report.step_count == 2);
  CHECK(RowOf(report, "kernel", "init").cells[1].value == 1);  // event tables keep it
}

TEST_CASE("set-up: --include-setup, or a schedule, counts step 0 as a step") {
  SummaryOptions options;
  options.include_setup = true;
  const ProcessReport included =
      testing::Analyze(WriteSetupTrace("setup_included.pb", "every step"), options);
  CHECK(RowOf(included, "model", "ProfileStep").cells[1].value == 3);
  CHECK(RowOf(included, "model", "ProfileStep").cells[2].stats.max_ns == 5000);
  CHECK(FindTable(included, "setup") == nullptr);
  const ProcessReport scheduled = testing::Analyze(
      WriteSetupTrace("setup_scheduled.pb", "skip_first=0,closed=0,ready=0,record=3,repeat=1"));
  CHECK(RowOf(scheduled, "model", "ProfileStep").cells[1].value == 3);
  CHECK(FindTable(scheduled, "setup") == nullptr);
}

}  // namespace
}  // namespace prof::analyzer
