// The agent's configuration, read once from PROF_* environment variables. A bad value
// never stops the program: it becomes one warning naming the variable, the value and the
// value used instead (one per variable, however many parts of it are bad), and parsing
// goes on. Every number is range-checked before use; the bounds:
//   PROF_SCHEDULE        every field 0..1e9 (record 1..1e9); START:END 0 <= START < END <= 1e9
//   PROF_BUFFER_MB       1..65536
//   PROF_STEPS_PER_FILE  0..1e9 (0: no limit)
//   PROF_STEP_MARKER     api:NAME:N with N in 1..1e9
//   PROF_FLIGHT_ENTRIES  16..16777216; PROF_FLIGHT_HANG_S 1..86400
//   PROF_FLIGHT_HOST_ENTRIES 0..1048576 (0: off)
// Flags (PROF_DISABLE, PROF_TIMER_ONLY, PROF_STACKS, PROF_PYTHON, PROF_PYTHON_OPS, PROF_SHAPES,
// PROF_ATEN_STACKS) all take 1/true/yes/on and 0/false/no/off (PROF_PYTHON_OPS also aten and
// python). Values are
// trimmed of spaces; a blank value is unset.
//
//   std::vector<std::string> warnings;
//   prof::Config config = prof::ParseConfig(prof::ProcessEnvironment(), &warnings);
#ifndef PROF_AGENT_CONTROL_CONFIG_H_
#define PROF_AGENT_CONTROL_CONFIG_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "agent/control/config_values.h"
#include "agent/control/log.h"
#include "agent/control/rank_identity.h"
#include "agent/control/schedule.h"

namespace prof {

// PROF_PYTHON_OPS: which operators the Python helper records for PyTorch. The helper asks
// the agent for the applied value (prof_config_get; libprof/_flags.py):
// 1/aten (or any on spelling): ATen operators as torch.profiler names them; python: the
// Python-level torch functions and Tensor methods; 0 (or any off spelling): none. Unset:
// ATen operators, inside recording windows only.
enum class PythonOperators { kOff, kAten, kPython };

// What PROF_ACTIVITIES may select (bits).
enum Activity : uint32_t {
  kActivityCudaApi = 1u << 0,  // runtime and driver API calls
  kActivityKernel = 1u << 1,
  kActivityMemcpy = 1u << 2,
  kActivityMemset = 1u << 3,
  kActivityNccl = 1u << 4,
  kActivityNvtx = 1u << 5,
  kActivityMemory = 1u << 6,  // allocations and frees
  kActivitySync = 1u << 7,
  kActivityAll = (1u << 8) - 1,
  // PROF_TIMER_ONLY: only steps and Dataloader ranges (for the Perf Summary's
  // reader_cost), nothing else; not part of kActivityAll.
  kActivityTimerOnly = 1u << 8,
};

// True for the names of data-loading ranges ("Dataloader", "DataLoader#2", ...).
bool IsDataloaderName(const char* name);

// A PROF_STEP_MARKER rule: a step ends at every `every`-th call of `api`, or at every
// launch of a kernel whose name matches the glob `kernel_glob`.
struct StepMarkerRule {
  std::string api;
  int64_t every = 1;
  std::string kernel_glob;
};

struct Config {
  bool disabled = false;
  Schedule schedule;
  std::string output_dir = "./profiler_log";
  std::string worker_name;
  // From the launcher's variables (not PROF_*): names the files and fills the header.
  RankIdentity rank;
  uint32_t activities = kActivityAll;
  bool timer_only = false;
  std::vector<StepMarkerRule> step_markers;
  std::string cupti_library;
  uint64_t buffer_bytes = 128ull << 20;
  // PROF_STEPS_PER_FILE: a recording window longer than this many steps continues in a
  // new file at the step boundary, so the analyzer, which holds one file's events at a
  // time, needs memory for this many steps only. 0: one file per window.
  int64_t steps_per_file = 500;
  LogLevel log_level = LogLevel::kWarn;
  bool stacks = false;
  // PROF_PYTHON: offer the Python helper to Python interpreters (python_bootstrap.h).
  bool python_helper = true;
  // PROF_PYTHON_OPS: the helper records PyTorch operators (read by the helper itself).
  PythonOperators python_operators = PythonOperators::kOff;
  // PROF_SHAPES: the helper records operators' input shapes, dtypes and source lines
  // (prof_operator_push_detail; read by the helper itself).
  bool shapes = false;
  // PROF_CLOCK: host timestamps from the invariant TSC, calibrated to CLOCK_MONOTONIC
  // ("tsc", where the CPU and kernel allow it), or from clock_gettime ("monotonic").
  bool clock_tsc = true;
  // Set in forked children: a window file is written only once it holds CUDA or NCCL
  // activity, so worker processes that never touch the GPU leave no file behind.
  bool files_need_cuda_activity = false;
  // PROF_CONTROL_DIR: where on-demand triggers are looked for (control/trigger.h); "" is
  // the default, /tmp/libprof-<uid>. PROF_TRIGGER=0 turns the polling off.
  std::string control_dir;
  bool trigger = true;
  // The flight recorder (record/flight_ring.h, writer/flight_monitor.h). PROF_FLIGHT=1:
  // every NCCL call and step boundary kept in memory whatever the schedule, dumped as a
  // trace file on a hang, a terminating signal or a trigger. PROF_FLIGHT_ENTRIES: the
  // ring's NCCL calls (128 bytes each: the default is 1 MiB; a job making ~100 NCCL calls
  // per step keeps its last ~80 steps). PROF_FLIGHT_HANG_S: a call entered and not
  // returned for this long is a hang (PyTorch's NCCL watchdog kills after 600 s by
  // default, so the dump comes well before). PROF_FLIGHT_DIR: where dumps go ("" is
  // PROF_OUTPUT_DIR). PROF_FLIGHT_SLOW_FACTOR: a step slower than this many times the
  // median of the last 16 is dumped (0: off; writer/flight_slow_step.h).
  // PROF_FLIGHT_TRIGGER_DIR: a folder shared by the job's ranks where a new file makes
  // every agent dump (writer/flight_trigger_folder.h; "": off).
  // PROF_FLIGHT_HOST_ENTRIES: the last CUDA runtime calls and ranges kept per thread
  // (record/flight_host.h; 128 bytes each, rounded up to a power of two: the default is
  // 512 KiB a thread, at most 64 threads; 0: off). 4096 hold a few steps of a job launching
  // ~1000 kernels a step.
  bool flight = false;
  uint64_t flight_entries = 8192;
  uint64_t flight_host_entries = 4096;
  int64_t flight_hang_s = 120;
  std::string flight_dir;
  int64_t flight_slow_factor = 0;
  std::string flight_trigger_dir;

  // Every PROF_* variable as applied, for the trace header.
  std::map<std::string, std::string> applied;
};

Config ParseConfig(const EnvironmentLookup& environment, std::vector<std::string>* warnings);

// Matches `text` against a glob with * and ?.
bool GlobMatch(const char* glob, const char* text);

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_CONFIG_H_
