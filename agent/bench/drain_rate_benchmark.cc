// How fast the writer thread turns host records into a trace file (issue 12): the ceiling
// of any sustained zero-loss rate, since the writer must keep up on average. N API-call
// records wait in the pool (a budget large enough for all of them) before the writer
// starts; the time from the window's opening to the end of Shutdown is the writer draining,
// converting, encoding and writing them on its one thread. Prints figures; asserts nothing.
//
//   drain_rate_benchmark [RECORDS]      (default 4,000,000)
#include <stdlib.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "agent/record/api_ids.h"
#include "agent/record/buffer_registry.h"
#include "agent/record/recorder.h"
#include "agent/writer/trace_writer.h"

int main(int argc, char** argv) {
  const uint64_t records = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4000000;
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
  for (uint64_t i = 0; i < records; ++i, time += 100) {
    prof::RecordApiCall(prof::kApi_cudaEventRecord, time, time + 40, 0, arguments);
  }
  prof::WindowSpec spec;
  spec.open_ns = 0;
  const auto start = std::chrono::steady_clock::now();
  writer.OpenWindow(spec);
  writer.CloseWindow(time);
  const bool finished = writer.Shutdown(600ull * 1000 * 1000 * 1000);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("   writer: %llu records drained, converted and written in %.3f s: "
              "%.2fM records/s%s\n",
              static_cast<unsigned long long>(records), seconds, records / seconds / 1e6,
              finished ? "" : " (timed out)");
  std::system((std::string("rm -rf ") + folder).c_str());
  return 0;
}
