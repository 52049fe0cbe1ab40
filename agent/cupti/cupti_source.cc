// The DeviceActivitySource backed by CUPTI: finds and loads libcupti on the first Enable,
// subscribes to the runtime/driver API callbacks it uses (callback_ids.h, one id at a
// time), enables the activity kinds the configuration asks for, and turns completed
// buffers into trace events.
//
// Thread safety: every method runs on the writer thread (DeviceActivitySource's
// contract). CUPTI is only called from here, never while an agent lock is held.
#include "agent/cupti/cupti_source.h"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "agent/control/log.h"
#include "agent/cupti/activity_buffers.h"
#include "agent/cupti/activity_converter.h"
#include "agent/cupti/api_callbacks.h"
#include "agent/cupti/buffer_routing.h"
#include "agent/cupti/callback_ids.h"
#include "agent/cupti/clock_anchor.h"
#include "agent/cupti/cupti_library.h"
#include "agent/cupti/cupti_locator.h"
#include "agent/cupti/cupti_neighbours.h"
#include "agent/cupti/cupti_versions.h"
#include "agent/cupti/fork_guard.h"
#include "agent/cupti/shared_subscription.h"
#include "agent/record/clock.h"

namespace prof {
namespace {

constexpr size_t kActivityBufferBytes = 4u << 20;
constexpr uint32_t kRefusableVersion = 27;        // CUDA 12.9: a refused buffer is safe
constexpr uint64_t kClockRefreshNs = 1000000000;  // tracks NTP slew of CUPTI's realtime clock

std::atomic<bool> g_process_exiting{false};  // NoteProcessExiting

struct KindChoice {
  uint32_t activity;  // PROF_ACTIVITIES bit
  CUpti_ActivityKind kind;
};

// CONCURRENT_KERNEL, never KERNEL: the latter serializes the program's kernels.
constexpr KindChoice kKindChoices[] = {
    {kActivityKernel, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL},
    {kActivityMemcpy, CUPTI_ACTIVITY_KIND_MEMCPY},
    {kActivityMemset, CUPTI_ACTIVITY_KIND_MEMSET},
    {kActivitySync, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION},
};

class CuptiSource : public DeviceActivitySource {
 public:
  explicit CuptiSource(const Config& config) : config_(config) {}

  bool Enable() override;
  void Disable() override;
  void Flush(bool forced) override;
  void Drain(WindowRouter& router) override;
  ClockAnchorValue Anchor(const char* reason) override;

 private:
  bool Usable() const { return enabled_ && !paused_ && !CuptiInheritedFromParent(); }
  bool Fail(const char* format, ...) __attribute__((format(printf, 2, 3)));
  bool LoadLibrary();
  bool CheckVersion(uint32_t* version);
  bool TakeCupti(uint32_t version);
  void Pause();
  void Release(WindowRouter& router);
  void Resume(WindowRouter& router);
  void CountPauses(WindowRouter& router);
  void DrainCompleted(WindowRouter& router);
  bool Subscribe();
  bool EnableCallbacks();
  bool EnableKinds();
  void Unsubscribe();
  void RefreshClockOffset(bool always);
  void AddLosses(WindowRouter& router, const ConversionCounts& counts);

  const Config config_;
  std::unique_ptr<CuptiLibrary> library_;
  std::unique_ptr<ActivityConverter> converter_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::vector<CUpti_ActivityKind> enabled_kinds_;
  std::vector<const CallbackIdEntry*> enabled_callbacks_;
  bool enabled_ = false;
  // Enabled, but another CUPTI client holds CUPTI (cupti_neighbours.h): host tracing only.
  bool paused_ = false;
  uint64_t pauses_to_count_ = 0;  // pauses not yet counted as a loss in a window
  uint32_t version_ = 0;
  std::string last_failure_;  // the last Fail message, so a repeat is not warned again
  uint64_t clock_measured_ns_ = 0;
};

// One warning per distinct failure: every window's Enable tries again, and the same
// failure again (no driver, no libcupti) is news only at debug level.
bool CuptiSource::Fail(const char* format, ...) {
  char message[768];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(message, sizeof(message), format, arguments);
  va_end(arguments);
  const bool repeat = last_failure_ == message;
  Log(repeat ? LogLevel::kDebug : LogLevel::kWarn,
      "%s; device activity (kernels, copies, memsets, syncs) is not recorded, host tracing "
      "goes on",
      message);
  last_failure_ = message;
  return false;
}

bool CuptiSource::LoadLibrary() {
  if (library_) return true;
  std::string first_error;
  for (const CuptiCandidate& candidate : CuptiCandidates(config_.cupti_library)) {
    auto library = std::make_unique<CuptiLibrary>();
    std::string error;
    if (LoadCuptiLibrary(candidate.path, candidate.only_if_loaded, library.get(), &error)) {
      library_ = std::move(library);
      NoteCuptiLoaded();
      return true;
    }
    if (first_error.empty()) first_error = error;
  }
  if (!config_.cupti_library.empty()) {
    return Fail("cannot load CUPTI from PROF_CUPTI_LIB=%s (%s)", config_.cupti_library.c_str(),
                first_error.c_str());
  }
  const std::string runtime = LoadedRuntimePath();
  return Fail(
      "no libcupti found for %s (looked beside it and in the pip, conda and toolkit "
      "folders around it, $CUDA_HOME, $CONDA_PREFIX/lib, /usr/local/cuda and the library "
      "path; set PROF_CUPTI_LIB)",
      runtime.empty() ? "this program" : runtime.c_str());
}

// The loaded CUPTI must be one whose records libprof reads, and of the loaded runtime's
// CUDA major (cupti_versions.h); else one line naming both files.
bool CuptiSource::CheckVersion(uint32_t* version) {
  const CUptiResult result = library_->GetVersion(version);
  if (result != CUPTI_SUCCESS) {
    return Fail("cuptiGetVersion failed in %s (%s)", library_->path.c_str(),
                library_->ResultText(result).c_str());
  }
  const std::string problem = CuptiVersionProblem(*version, library_->path, LoadedRuntimePath());
  if (!problem.empty()) return Fail("%s", problem.c_str());
  return true;
}

// Through the subscription shared with the program's CUPTI client (cupti_neighbours.h).
bool CuptiSource::Subscribe() {
  CallbackApi api;
  api.subscribe = library_->Subscribe;
  api.unsubscribe = library_->Unsubscribe;
  api.enable_callback = library_->EnableCallback;
  api.enable_domain = library_->EnableDomain;
  CUptiResult result = SharedSubscribe(Party::kAgent, api, &subscriber_, &OnApiCallback, nullptr);
  if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    subscriber_ = nullptr;
    return Fail(
        "another tool (Nsight Systems, Nsight Compute, a debugger) already subscribed to "
        "CUPTI, which allows one subscriber (%s)",
        library_->ResultText(result).c_str());
  }
  if (result != CUPTI_SUCCESS && g_process_exiting.load(std::memory_order_relaxed)) {
    subscriber_ = nullptr;
    return Fail(
        "cuptiSubscribe failed in %s (%s): the program was exiting and CUDA was "
        "being torn down",
        library_->path.c_str(), library_->ResultText(result).c_str());
  }
  if (result == CUPTI_ERROR_NOT_INITIALIZED) {
    subscriber_ = nullptr;
    return Fail(
        "cuptiSubscribe failed in %s (%s): the CUDA driver is not loaded or not "
        "initialized in this process (no NVIDIA driver for this CUDA version, or CUDA "
        "not used yet)",
        library_->path.c_str(), library_->ResultText(result).c_str());
  }
  if (result != CUPTI_SUCCESS) {
    subscriber_ = nullptr;
    return Fail(
        "cuptiSubscribe failed in %s (%s; is an NVIDIA driver for this CUDA "
        "version installed?)",
        library_->path.c_str(), library_->ResultText(result).c_str());
  }
  if (!EnableCallbacks()) return false;
  result = library_->ActivityRegisterCallbacks(&RoutedBufferRequested, &RoutedBufferCompleted);
  if (result != CUPTI_SUCCESS) {
    Unsubscribe();
    return Fail("cuptiActivityRegisterCallbacks failed (%s)", library_->ResultText(result).c_str());
  }
  return true;
}

// Every id of callback_ids.h. An id this CUPTI does not know (an older CUDA than the
// headers we build with) is left out with one info line; failing only when none is left.
bool CuptiSource::EnableCallbacks() {
  enabled_callbacks_.clear();
  size_t count = 0;
  const CallbackIdEntry* ids = AgentCallbackIds(&count);
  std::string refused;
  CUptiResult last_error = CUPTI_SUCCESS;
  for (size_t i = 0; i < count; ++i) {
    const CUptiResult result =
        SharedEnableCallback(Party::kAgent, 1, subscriber_, ids[i].domain, ids[i].cbid);
    if (result == CUPTI_SUCCESS) {
      enabled_callbacks_.push_back(&ids[i]);
    } else {
      refused += std::string(" ") + ids[i].name;
      last_error = result;
    }
  }
  if (enabled_callbacks_.empty()) {
    Unsubscribe();
    return Fail("cuptiEnableCallback failed (%s)", library_->ResultText(last_error).c_str());
  }
  if (!refused.empty()) Log(LogLevel::kInfo, "CUPTI refused callbacks:%s", refused.c_str());
  return true;
}

// Disables each enabled id before unsubscribing: whatever a CUPTI version does at
// unsubscribe, no callback of ours stays enabled after a window ends.
void CuptiSource::Unsubscribe() {
  if (!subscriber_) return;
  for (const CallbackIdEntry* id : enabled_callbacks_) {
    SharedEnableCallback(Party::kAgent, 0, subscriber_, id->domain, id->cbid);
  }
  enabled_callbacks_.clear();
  SharedUnsubscribe(Party::kAgent, subscriber_);
  subscriber_ = nullptr;
}

// The kinds PROF_ACTIVITIES selects; a kind CUPTI refuses is left out (one info line),
// failing only when none could be enabled.
bool CuptiSource::EnableKinds() {
  enabled_kinds_.clear();
  std::string refused;
  for (const KindChoice& choice : kKindChoices) {
    if (!(config_.activities & choice.activity)) continue;
    const CUptiResult result = library_->ActivityEnable(choice.kind);
    if (result == CUPTI_SUCCESS) {
      enabled_kinds_.push_back(choice.kind);
    } else {
      refused +=
          " " + std::to_string(static_cast<int>(choice.kind)) + ":" + library_->ResultText(result);
    }
  }
  if (enabled_kinds_.empty()) {
    Unsubscribe();
    return Fail("CUPTI enabled no activity kind (refused:%s)", refused.c_str());
  }
  if (!refused.empty()) Log(LogLevel::kInfo, "CUPTI refused activity kinds:%s", refused.c_str());
  return true;
}

bool CuptiSource::Enable() {
  if (enabled_) return true;
  if (CuptiInheritedFromParent()) {
    return Fail("CUPTI was loaded by the parent process and cannot be used after fork()");
  }
  if (!LoadLibrary() || !CheckVersion(&version_)) return false;
  if (ForeignTraceRuns()) {  // rule 2 of cupti_neighbours.h: wait for its end
    enabled_ = true;
    Pause();
    return true;
  }
  enabled_ = TakeCupti(version_);
  return enabled_;
}

// Subscribes, registers the activity buffers and enables the kinds: libprof holds CUPTI.
bool CuptiSource::TakeCupti(uint32_t version) {
  // Records completed after the previous window's last drain belong to no window.
  RecycleBuffers(TakeCompletedBuffers());
  const size_t max_buffers = std::max<size_t>(2, config_.buffer_bytes / 4 / kActivityBufferBytes);
  ConfigureActivityBuffers(kActivityBufferBytes, max_buffers, version >= kRefusableVersion);
  StartApiCallbacks((config_.activities & kActivityCudaApi) != 0);
  if (!Subscribe()) return false;
  // CUPTI may still hold a buffer the program gave it (CUDA 13.0 keeps one across a forced
  // flush): handed back now, before libprof's records could go into it (buffer_routing.h).
  library_->ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  converter_ = std::make_unique<ActivityConverter>(library_->ActivityGetNextRecord);
  RefreshClockOffset(/*always=*/true);
  if (!EnableKinds()) return false;
  NoteAgentHoldsCupti(true);
  Log(LogLevel::kInfo, "recording device activity with %s (CUPTI API version %u)",
      library_->path.c_str(), version);
  return true;
}

// The program's profiler traces (rule 2): libprof records host activity only, and each
// window open meanwhile counts the pause (DEVICE_TRACING_PAUSED).
void CuptiSource::Pause() {
  paused_ = true;
  ++pauses_to_count_;
  NoteAgentWaits(true);
  Log(LogLevel::kWarn,
      "the program's own profiler (torch.profiler, its own CUPTI code) traces device "
      "activity: libprof records host activity only until that trace ends, and then "
      "device activity again");
}

// Rule 2: what libprof recorded goes into its windows first, then the activity API is the
// program's.
void CuptiSource::Release(WindowRouter& router) {
  library_->ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  DrainCompleted(router);
  for (CUpti_ActivityKind kind : enabled_kinds_) library_->ActivityDisable(kind);
  enabled_kinds_.clear();
  Unsubscribe();
  NoteAgentHoldsCupti(false);
  Pause();
}

// Rule 3: the program's trace ended. Its buffers still in CUPTI go to it (a forced flush
// while it still holds the activity API: TakeCupti's own flush comes after libprof holds
// it, and would hand the program's last records to libprof, buffer_routing.h), then
// libprof's are. The open window gets a clock
// anchor from now, as a window that opened before the subscription does
// (device_commands.cc).
void CuptiSource::Resume(WindowRouter& router) {
  paused_ = false;
  library_->ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  const bool taken = TakeCupti(version_);
  NoteAgentWaits(false);
  if (!taken) {
    enabled_ = false;
    return;
  }
  if (DeviceWindow* window = router.WindowFor(0, MonotonicNs())) {
    window->AddClockAnchor(Anchor("device activity resumed"));
  }
  Log(LogLevel::kInfo, "CUPTI is free again: libprof records device activity again");
}

void CuptiSource::CountPauses(WindowRouter& router) {
  if (pauses_to_count_ == 0) return;
  DeviceWindow* window = router.WindowFor(0, MonotonicNs());
  if (window) {
    window->AddLoss(schema::LOSS_KIND_DEVICE_TRACING_PAUSED, pauses_to_count_);
    pauses_to_count_ = 0;
  } else if (!paused_) {
    pauses_to_count_ = 0;  // paused and resumed while no window was open: nothing lost
  }
}

void CuptiSource::Disable() {
  if (!enabled_ || CuptiInheritedFromParent()) return;
  enabled_ = false;
  if (paused_) {
    paused_ = false;
    NoteAgentWaits(false);
    return;
  }
  for (CUpti_ActivityKind kind : enabled_kinds_) library_->ActivityDisable(kind);
  enabled_kinds_.clear();
  library_->ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  Unsubscribe();
  NoteAgentHoldsCupti(false);
}

void CuptiSource::Flush(bool forced) {
  if (!Usable()) return;
  library_->ActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
}

void CuptiSource::Drain(WindowRouter& router) {
  if (!enabled_ || CuptiInheritedFromParent()) return;
  if (paused_ && !ForeignTraceRuns()) {
    Resume(router);
  } else if (!paused_ && ReleaseRequested()) {
    Release(router);
  }
  CountPauses(router);
  if (Usable()) DrainCompleted(router);
}

void CuptiSource::DrainCompleted(WindowRouter& router) {
  RefreshClockOffset(/*always=*/false);
  const std::vector<ActivityBuffer> buffers = TakeCompletedBuffers();
  ConversionCounts counts;
  for (const ActivityBuffer& buffer : buffers) converter_->ConvertBuffer(buffer, router, &counts);
  RecycleBuffers(buffers);
  AddLosses(router, counts);
}

// Drops CUPTI counted (buffers refused, device buffers full) and records that never got
// timestamps go into the newest window: they happened while it was open.
void CuptiSource::AddLosses(WindowRouter& router, const ConversionCounts& counts) {
  size_t dropped = 0;
  if (library_->ActivityGetNumDroppedRecords(nullptr, 0, &dropped) != CUPTI_SUCCESS) dropped = 0;
  const uint64_t lost = dropped + counts.incomplete;
  if (lost == 0 && counts.corrupt_buffers == 0) return;
  DeviceWindow* newest = router.WindowFor(0, MonotonicNs());
  if (!newest) return;
  if (lost) newest->AddLoss(schema::LOSS_KIND_CUPTI_DROPPED, lost);
  if (counts.corrupt_buffers) {
    newest->AddLoss(schema::LOSS_KIND_CUPTI_BUFFER_LOST, counts.corrupt_buffers);
  }
}

void CuptiSource::RefreshClockOffset(bool always) {
  const uint64_t now = MonotonicNs();
  if (!always && now - clock_measured_ns_ < kClockRefreshNs) return;
  Anchor("clock offset");
}

ClockAnchorValue CuptiSource::Anchor(const char* reason) {
  if (!library_ || CuptiInheritedFromParent() || !converter_) {
    return MeasureCuptiAnchor(nullptr, reason);
  }
  ClockAnchorValue anchor = MeasureCuptiAnchor(library_->GetTimestamp, reason);
  if (anchor.cupti_ns != 0) {
    converter_->SetClockOffset(CuptiMinusHostNs(anchor));
    clock_measured_ns_ = anchor.host_monotonic_ns;
  }
  return anchor;
}

}  // namespace

void NoteProcessExiting() { g_process_exiting.store(true, std::memory_order_relaxed); }

std::unique_ptr<DeviceActivitySource> MakeCuptiSource(const Config& config) {
  InstallCuptiForkHandler();
  return std::make_unique<CuptiSource>(config);
}

}  // namespace prof
