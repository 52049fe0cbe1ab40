// Figures for the analyzer (prints, asserts nothing): writes a synthetic trace of N
// events shaped like training steps (70% launch+kernel pairs, 20% copy/memset pairs,
// 10% operator and user ranges, a step every 5000 events), then times file -> model ->
// every table on one thread, and reports events/s per core and peak RSS. Per core means
// per CPU second (user + system time of the analysis), so a loaded machine does not
// distort it; the wall-clock figure is printed beside it.
//
//   bazel run -c opt //analyzer/bench:analyzer_benchmark -- --events=10000000
//   analyzer_benchmark --events=10000000 --write=/tmp/t.pb   (writes the trace, keeps it,
//                                                            analyzes nothing; see
//                                                            run_benchmark.sh)
//   analyzer_benchmark --events=10000000 --windows=10 --write=/tmp/run
//       (the same timeline cut at step boundaries into 10 window files of one process, in
//        the folder /tmp/run, as a cycling PROF_SCHEDULE writes them)
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "absl/strings/str_format.h"
#include "analyzer/read/trace_file_loader.h"
#include "analyzer/summary/report.h"
#include "analyzer/testing/synthetic_trace.h"

namespace prof::analyzer {
namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// User + system CPU seconds of this process so far.
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

long PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

}  // namespace
}  // namespace prof::analyzer

namespace {

struct Options {
  uint64_t events = 10000000;
  std::string write_only;  // --write: the trace's path (a folder with --windows)
  int windows = 1;
};

constexpr char kUsage[] = "usage: analyzer_benchmark [--events=N] [--write=PATH] [--windows=N]";

// The options in argv, or an exit status (0 for --help, 2 for a bad option, with one line).
std::optional<int> ParseOptions(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--events=", 0) == 0) {
      options->events = std::strtoull(argument.c_str() + 9, nullptr, 10);
    } else if (argument.rfind("--write=", 0) == 0) {
      options->write_only = argument.substr(8);
    } else if (argument.rfind("--windows=", 0) == 0) {
      options->windows = std::max(1, std::atoi(argument.c_str() + 10));
    } else if (argument == "--help" || argument == "-h") {
      std::printf("%s\n", kUsage);
      return 0;
    } else {
      std::fprintf(stderr, "analyzer_benchmark: unknown option '%s'; %s\n", argument.c_str(),
                   kUsage);
      return 2;
    }
  }
  if (options->events == 0) {
    std::fprintf(stderr, "analyzer_benchmark: --events must be a number above 0\n");
    return 2;
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (std::optional<int> status = ParseOptions(argc, argv, &options)) return *status;
  if (!options.write_only.empty()) {
    const uint64_t written =
        prof::analyzer::WriteSyntheticTrace(options.write_only, options.events, options.windows);
    if (written == 0) {
      std::fprintf(stderr, "analyzer_benchmark: could not write %s%s\n",
                   options.write_only.c_str(),
                   options.windows > 1 ? " (--windows writes into a folder that must exist)" : "");
      return 1;
    }
    std::printf("%llu\n", static_cast<unsigned long long>(written));
    return 0;
  }
  const std::string path = absl::StrFormat("/tmp/analyzer_benchmark.%d.pb", getpid());
  const uint64_t written = prof::analyzer::WriteSyntheticTrace(path, options.events, 1);
  const long rss_before = prof::analyzer::PeakRssMiB();

  const double cpu_start = prof::analyzer::CpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<prof::analyzer::TraceModel> model = prof::analyzer::LoadTraceFile(path);
  if (!model.ok()) {
    std::fprintf(stderr, "analyzer_benchmark: %s\n", std::string(model.status().message()).c_str());
    return 1;
  }
  const double load_seconds = prof::analyzer::CpuSeconds() - cpu_start;
  const prof::analyzer::ProcessReport report =
      prof::analyzer::BuildProcessReport(std::move(*model), {}, prof::analyzer::AllViews());
  const double total_seconds = prof::analyzer::CpuSeconds() - cpu_start;
  const double wall_seconds = prof::analyzer::Seconds(start);
  std::remove(path.c_str());

  std::printf(
      "analyzer benchmark: %llu events in one file, one thread (file -> model -> all %zu tables)\n",
      static_cast<unsigned long long>(written), report.tables.size());
  std::printf("%-40s %12s %12s\n", "figure", "measured", "goal");
  std::printf("%-40s %12.2f %12s\n", "read + model, M events/s per core",
              written / load_seconds / 1e6, "");
  std::printf("%-40s %12.2f %12s\n", "file to all tables, M events/s per core",
              written / total_seconds / 1e6, ">= 20");
  std::printf("%-40s %12.2f %12s\n", "file to all tables, CPU seconds", total_seconds, "");
  std::printf("%-40s %12.2f %12s\n", "file to all tables, wall seconds", wall_seconds, "");
  std::printf("%-40s %12ld %12s\n", "peak RSS, MiB (whole process)", prof::analyzer::PeakRssMiB(),
              "");
  std::printf("%-40s %12ld %12s\n", "peak RSS before analysis, MiB (writer)", rss_before, "");
  return report.event_count == written ? 0 : 1;
}
