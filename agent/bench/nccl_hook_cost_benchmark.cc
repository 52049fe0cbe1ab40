// Added host cost of an intercepted NCCL call, the flight recorder's hot path included:
// ncclGroupStart/ncclGroupEnd pairs (two hooked calls that reach no device and no peer,
// so the figure is the hook's own cost, not the collective's) made through the symbols the
// program links (libprof's hooks, when preloaded) and directly through the simulated
// libnccl's own definitions (dlsym on libnccl.so.2), alternating in one process. Run it
// under LD_PRELOAD=libprof.so with a CLOSED schedule, with PROF_FLIGHT=1 and without
// (scripts/bench.sh does). Prints figures; asserts nothing.
#include <dlfcn.h>
#include <nccl.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

uint64_t NowNs() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

using GroupCall = ncclResult_t (*)();

struct Group {
  GroupCall start;
  GroupCall end;
};

// Median over `rounds` of the average time per hooked call in a batch of `batch` pairs.
double MedianNsPerCall(const Group& group, int rounds, int batch) {
  std::vector<double> per_call(rounds);
  for (int round = 0; round < rounds; ++round) {
    const uint64_t begin = NowNs();
    for (int i = 0; i < batch; ++i) {
      group.start();
      group.end();
    }
    per_call[round] = static_cast<double>(NowNs() - begin) / (2.0 * batch);
  }
  std::nth_element(per_call.begin(), per_call.begin() + rounds / 2, per_call.end());
  return per_call[rounds / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const char* label = argc > 1 ? argv[1] : "?";
  const int rounds = 2000;
  const int batch = 500;  // 2M hooked calls each way
  void* nccl = dlopen("libnccl.so.2", RTLD_NOW | RTLD_NOLOAD);
  const Group direct{nccl ? reinterpret_cast<GroupCall>(dlsym(nccl, "ncclGroupStart")) : nullptr,
                     nccl ? reinterpret_cast<GroupCall>(dlsym(nccl, "ncclGroupEnd")) : nullptr};
  const Group linked{reinterpret_cast<GroupCall>(dlsym(RTLD_DEFAULT, "ncclGroupStart")),
                     reinterpret_cast<GroupCall>(dlsym(RTLD_DEFAULT, "ncclGroupEnd"))};
  if (!direct.start || !direct.end || !linked.start || !linked.end) {
    std::fprintf(stderr, "nccl_hook_cost_benchmark: cannot find ncclGroupStart/End\n");
    return 1;
  }
  // Step 0 ends as a program's would, so the schedule in scripts/bench.sh holds step 1
  // CLOSED; then the writer thread (started by the first flight call) settles.
  using StepFunction = void (*)(int64_t);
  if (auto step = reinterpret_cast<StepFunction>(dlsym(RTLD_DEFAULT, "prof_step"))) step(0);
  MedianNsPerCall(linked, 100, batch);
  struct timespec pause = {0, 100000000};
  nanosleep(&pause, nullptr);
  double direct_ns = 0, linked_ns = 0;
  // Alternate to share any drift of the machine between the two.
  for (int pass = 0; pass < 4; ++pass) {
    direct_ns += MedianNsPerCall(direct, rounds / 4, batch) / 4;
    linked_ns += MedianNsPerCall(linked, rounds / 4, batch) / 4;
  }
  std::printf("%-22s direct %7.1f ns/call   through libprof %7.1f ns/call   added %6.1f ns/call\n",
              label, direct_ns, linked_ns, linked_ns - direct_ns);
  return 0;
}
