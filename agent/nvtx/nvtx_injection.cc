// NVTX v3 injection: NVTX is header-only, and each NVTX instance in the process loads the
// library named by NVTX_INJECTION64_PATH (the agent points it at itself) and calls
// InitializeInjectionNvtx2, once per instance. We fill the CORE and CORE2 slots with
// functions that record ranges and marks. Push/pop depth is kept per thread in every
// state so return values stay right; records are made only while recording. Ranges and
// marks named ProfileStep* are step boundaries, in every state.
#include <nvtx3/nvToolsExt.h>

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

#include "agent/record/errno_preserved.h"
#include "agent/control/config.h"
#include "agent/control/session.h"
#include "agent/hooks/hook_support.h"
#include "agent/record/recorder.h"
#include "proto/schema_enums.h"

namespace prof {
namespace {

thread_local int t_depth __attribute__((tls_model("initial-exec"))) = 0;
// Bit d set: the range pushed at depth d is a ProfileStep range (not recorded).
thread_local uint64_t t_step_ranges __attribute__((tls_model("initial-exec"))) = 0;
// Bit d set: the push at depth d was recorded, so its pop must be too.
thread_local uint64_t t_recorded_ranges __attribute__((tls_model("initial-exec"))) = 0;
std::atomic<uint64_t> g_next_range_id{1};

// Interned, never freed: registered strings and domain names are handed out as pointers,
// so the set must be node-based (a flat set moves its strings when it grows).
const char* Intern(const char* text) {
  ErrnoPreserved keep;  // an NVTX call leaves the program's errno as it was
  static std::mutex* mutex = new std::mutex;
  static auto* strings = new std::unordered_set<std::string>;  // node-based
  std::lock_guard<std::mutex> lock(*mutex);
  return strings->insert(text ? text : "").first->c_str();
}

const char* MessageOf(const nvtxEventAttributes_t* attributes) {
  if (!attributes) return "";
  switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII: return attributes->message.ascii ? attributes->message.ascii : "";
    case NVTX_MESSAGE_TYPE_REGISTERED:
      return reinterpret_cast<const char*>(attributes->message.registered);
    case NVTX_MESSAGE_TYPE_UNICODE: return "<unicode name>";
    default: return "";
  }
}

const char* DomainName(nvtxDomainHandle_t domain) { return reinterpret_cast<const char*>(domain); }

bool IsStepName(const char* name) { return std::strncmp(name, "ProfileStep", 11) == 0; }

void EndStep() {
  if (Session* session = Session::Current()) session->steps().Step(0);
}

bool RecordingNvtx() { return Recording() && ActivityEnabled(kActivityNvtx); }

// Ranges are recorded with NVTX on; with PROF_TIMER_ONLY only Dataloader ranges are.
bool RecordingRange(const char* name) {
  return RecordingNvtx() ||
         (Recording() && ActivityEnabled(kActivityTimerOnly) && IsDataloaderName(name));
}

int Push(const char* name, const char* domain) {
  ErrnoPreserved keep;  // an NVTX call leaves the program's errno as it was
  // Step ranges hold a level in the flight stack too (unnamed), so pops stay paired.
  if (FlightOn()) {
    FlightHostPush(schema::RANGE_KIND_NVTX_PUSH_POP, name, MonotonicNs(), !IsStepName(name));
  }
  const int depth = t_depth++;
  if (IsStepName(name)) {
    if (depth < 64) t_step_ranges |= uint64_t{1} << depth;
    EndStep();
    return depth;
  }
  if (depth < 64) t_step_ranges &= ~(uint64_t{1} << depth);
  // Depth d's pop is recorded only if its push was (bit set in t_recorded_ranges).
  const bool recorded = RecordingRange(name);
  if (depth < 64) {
    t_recorded_ranges = recorded ? t_recorded_ranges | (uint64_t{1} << depth)
                                 : t_recorded_ranges & ~(uint64_t{1} << depth);
  }
  if (recorded) {
    RecordNamed<RecordKind::kRangePush>(schema::RANGE_KIND_NVTX_PUSH_POP, name, MonotonicNs(), 0,
                                        domain);
  }
  return depth;
}

int Pop() {
  ErrnoPreserved keep;  // an NVTX call leaves the program's errno as it was
  if (FlightOn()) FlightHostPop(MonotonicNs());
  if (t_depth == 0) {
    if (RecordingNvtx()) RecordNamed<RecordKind::kRangePop>(0, nullptr, MonotonicNs(), 0);
    return -1;
  }
  const int depth = --t_depth;
  const bool step = depth < 64 && (t_step_ranges >> depth) & 1;
  const bool pushed_recorded = depth >= 64 || (t_recorded_ranges >> depth) & 1;
  if (!step && pushed_recorded && Recording()) {
    RecordNamed<RecordKind::kRangePop>(0, nullptr, MonotonicNs(), 0);
  }
  return depth;
}

nvtxRangeId_t Start(const char* name, const char* domain) {
  ErrnoPreserved keep;  // an NVTX call leaves the program's errno as it was
  const nvtxRangeId_t id = g_next_range_id.fetch_add(1, std::memory_order_relaxed);
  if (IsStepName(name)) {
    EndStep();
    return id;
  }
  if (RecordingNvtx()) {
    RecordNamed<RecordKind::kRangeStart>(schema::RANGE_KIND_NVTX_START_END, name, MonotonicNs(), id,
                                         domain);
  }
  return id;
}

void End(nvtxRangeId_t id) {
  ErrnoPreserved keep;  // an NVTX call leaves the program's errno as it was
  if (RecordingNvtx()) RecordNamed<RecordKind::kRangeEnd>(0, nullptr, MonotonicNs(), id);
}

void Mark(const char* name, const char* domain) {
  ErrnoPreserved keep;  // an NVTX call leaves the program's errno as it was
  if (IsStepName(name)) {
    EndStep();
    return;
  }
  if (RecordingNvtx()) {
    RecordNamed<RecordKind::kMark>(schema::RANGE_KIND_MARK, name, MonotonicNs(), 0, domain);
  }
}

// CORE module.
void MarkEx(const nvtxEventAttributes_t* attributes) { Mark(MessageOf(attributes), nullptr); }
void MarkA(const char* message) { Mark(message ? message : "", nullptr); }
nvtxRangeId_t RangeStartEx(const nvtxEventAttributes_t* attributes) {
  return Start(MessageOf(attributes), nullptr);
}
nvtxRangeId_t RangeStartA(const char* message) { return Start(message ? message : "", nullptr); }
void RangeEnd(nvtxRangeId_t id) { End(id); }
int RangePushEx(const nvtxEventAttributes_t* attributes) {
  return Push(MessageOf(attributes), nullptr);
}
int RangePushA(const char* message) { return Push(message ? message : "", nullptr); }
int RangePop() { return Pop(); }
void NameOsThreadA(uint32_t /*thread*/, const char* name) {
  ErrnoPreserved keep;  // an NVTX call leaves the program's errno as it was
  if (Recording()) RecordNamed<RecordKind::kThreadName>(0, name, MonotonicNs(), 0);
}

// CORE2 module (domains).
void DomainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  Mark(MessageOf(attributes), DomainName(domain));
}
nvtxRangeId_t DomainRangeStartEx(nvtxDomainHandle_t domain,
                                 const nvtxEventAttributes_t* attributes) {
  return Start(MessageOf(attributes), DomainName(domain));
}
void DomainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t id) { End(id); }
int DomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  return Push(MessageOf(attributes), DomainName(domain));
}
int DomainRangePop(nvtxDomainHandle_t) { return Pop(); }
nvtxStringHandle_t DomainRegisterStringA(nvtxDomainHandle_t, const char* text) {
  return reinterpret_cast<nvtxStringHandle_t>(const_cast<char*>(Intern(text)));
}
nvtxDomainHandle_t DomainCreateA(const char* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(const_cast<char*>(Intern(name)));
}
void DomainDestroy(nvtxDomainHandle_t) {}

template <typename Function>
void Install(NvtxFunctionTable table, unsigned int size, unsigned int id, Function function) {
  if (id < size && table[id]) *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
}

}  // namespace
}  // namespace prof

// Called by every NVTX instance in the process that finds NVTX_INJECTION64_PATH.
PROF_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  using namespace prof;
  ErrnoPreserved keep;
  if (!get_export_table) return 0;
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (!callbacks || !callbacks->GetModuleFunctionTable) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) && table) {
    Install(table, size, NVTX_CBID_CORE_MarkEx, &MarkEx);
    Install(table, size, NVTX_CBID_CORE_MarkA, &MarkA);
    Install(table, size, NVTX_CBID_CORE_RangeStartEx, &RangeStartEx);
    Install(table, size, NVTX_CBID_CORE_RangeStartA, &RangeStartA);
    Install(table, size, NVTX_CBID_CORE_RangeEnd, &RangeEnd);
    Install(table, size, NVTX_CBID_CORE_RangePushEx, &RangePushEx);
    Install(table, size, NVTX_CBID_CORE_RangePushA, &RangePushA);
    Install(table, size, NVTX_CBID_CORE_RangePop, &RangePop);
    Install(table, size, NVTX_CBID_CORE_NameOsThreadA, &NameOsThreadA);
  }
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) && table) {
    Install(table, size, NVTX_CBID_CORE2_DomainMarkEx, &DomainMarkEx);
    Install(table, size, NVTX_CBID_CORE2_DomainRangeStartEx, &DomainRangeStartEx);
    Install(table, size, NVTX_CBID_CORE2_DomainRangeEnd, &DomainRangeEnd);
    Install(table, size, NVTX_CBID_CORE2_DomainRangePushEx, &DomainRangePushEx);
    Install(table, size, NVTX_CBID_CORE2_DomainRangePop, &DomainRangePop);
    Install(table, size, NVTX_CBID_CORE2_DomainRegisterStringA, &DomainRegisterStringA);
    Install(table, size, NVTX_CBID_CORE2_DomainCreateA, &DomainCreateA);
    Install(table, size, NVTX_CBID_CORE2_DomainDestroy, &DomainDestroy);
  }
  const auto* version =
      static_cast<const NvtxExportTableVersionInfo*>(get_export_table(NVTX_ETID_VERSIONINFO));
  if (version && version->SetInjectionNvtxVersion) version->SetInjectionNvtxVersion(NVTX_VERSION);
  return 1;
}
