// How fast the writer thread turns host records into a trace file (issue 12): the ceiling
// of any sustained zero-loss rate, since the writer must keep up on average. N API-call
// records wait in the pool (a budget large enough for all of them) before the writer
// starts; the time from the window's opening to the end of Shutdown is the writer draining,
// converting, encoding and writing them on its one thread. Prints figures; asserts nothing.
// With `launches`, the records are kernel launches (a function and its geometry, as
// cudaLaunchKernel's hook makes them) instead of cudaEventRecord calls; with `operators`,
// PyTorch operators as the torch observer records them (RecordOperatorRange: a name-only
// range), cycling through 60 ATen names in an order that repeats every 133 operators, as
// scripts/aten_cost.py's loop does (its callgrind figures, docs/benchmarks.md, take
// minutes a run; this takes seconds and runs only the writer's code).
//
//   drain_rate_benchmark [RECORDS] [launches|operators]   (default 4,000,000 event records)
#include <stdlib.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "agent/record/api_ids.h"
#include "agent/record/buffer_registry.h"
#include "agent/record/recorder.h"
#include "agent/writer/trace_writer.h"

namespace {

// ATen operator names of a small CPU model's step, forward and backward.
constexpr const char* kOperatorNames[] = {
    "aten::linear", "aten::t", "aten::transpose", "aten::as_strided", "aten::addmm",
    "aten::expand", "aten::copy_", "aten::relu", "aten::clamp_min", "aten::empty",
    "aten::zeros", "aten::zero_", "aten::fill_", "aten::to", "aten::_to_copy",
    "aten::empty_strided", "aten::mm", "aten::sum", "aten::mean", "aten::view",
    "aten::reshape", "aten::_reshape_alias", "aten::add", "aten::add_", "aten::mul",
    "aten::mul_", "aten::div", "aten::sub", "aten::neg", "aten::exp",
    "aten::log_softmax", "aten::_log_softmax", "aten::nll_loss", "aten::nll_loss_forward",
    "aten::nll_loss_nd", "aten::ones_like", "aten::empty_like", "aten::detach",
    "aten::detach_", "aten::threshold_backward", "aten::_log_softmax_backward_data",
    "aten::nll_loss_backward", "aten::sum_backward", "aten::matmul", "aten::slice",
    "aten::select", "aten::cat", "aten::stack", "aten::unsqueeze", "aten::squeeze",
    "aten::contiguous", "aten::clone", "aten::resize_", "aten::lerp_", "aten::addcmul_",
    "aten::addcdiv_", "aten::sqrt", "aten::_foreach_add_", "aten::is_nonzero", "aten::item",
};
constexpr size_t kOperatorNameCount = sizeof(kOperatorNames) / sizeof(kOperatorNames[0]);

}  // namespace

int main(int argc, char** argv) {
  const uint64_t records = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4000000;
  const std::string mode = argc > 2 ? argv[2] : "";
  const bool launches = mode == "launches";
  const bool operators = mode == "operators";
  char folder[] = "/tmp/prof-drain.XXXXXX";
  if (!mkdtemp(folder)) return 1;
  prof::ConfigureBuffers(static_cast<size_t>(records * 128 + (64u << 20)));
  prof::Config config;
  config.output_dir = folder;
  config.worker_name = "drain";
  prof::FileHeaderValue header;
  header.worker_name = config.worker_name;
  prof::TraceWriter writer(config, header, nullptr);

  uint64_t time = 1000;
  prof::ApiArguments arguments;
  arguments.stream_plus_one = 1;
  const prof::LaunchGeometry geometry{{1, 1, 1}, {32, 1, 1}, 0, 0};
  if (launches) {
    arguments.function = reinterpret_cast<const void*>(&main);
    arguments.launch = &geometry;
  }
  const uint16_t api = launches ? prof::kApi_cudaLaunchKernel : prof::kApi_cudaEventRecord;
  for (uint64_t i = 0; i < records; ++i, time += 100) {
    if (operators) {
      // 133 an iteration, each name at a step of 7 through the list (a repeating mix).
      const char* name = kOperatorNames[(i % 133) * 7 % kOperatorNameCount];
      prof::RecordOperatorRange(name, time, time + 40 + (i % 13) * 3);
    } else {
      prof::RecordApiCall(api, time, time + 40, 0, arguments);
    }
  }
  rusage before;
  getrusage(RUSAGE_SELF, &before);
  prof::WindowSpec spec;
  spec.open_ns = 0;
  const auto start = std::chrono::steady_clock::now();
  writer.OpenWindow(spec);
  writer.CloseWindow(time);
  const bool finished = writer.Shutdown(600ull * 1000 * 1000 * 1000);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage after;
  getrusage(RUSAGE_SELF, &after);
  auto cpu_seconds = [](const rusage& usage) {
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  };
  const double cpu_ns = (cpu_seconds(after) - cpu_seconds(before)) * 1e9 / records;
  std::printf(
      "   writer: %llu %s records drained, converted and written in %.3f s: "
      "%.2fM records/s, %.1f ns CPU a record%s\n",
      static_cast<unsigned long long>(records),
      launches ? "launch" : operators ? "operator" : "API-call", seconds,
      records / seconds / 1e6, cpu_ns, finished ? "" : " (timed out)");
  std::system((std::string("rm -rf ") + folder).c_str());
  return 0;
}
