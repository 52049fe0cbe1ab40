#include "agent/writer/flight_host_dump.h"

#include <algorithm>
#include <map>

#include "agent/record/api_ids.h"
#include "proto/schema_enums.h"

namespace prof {
namespace {

uint64_t EndOf(const FlightHostEntry& entry, uint64_t dump_ns) {
  const uint64_t end = entry.end_ns != 0 ? entry.end_ns : dump_ns;  // running at the dump
  return std::max(end, entry.start_ns);
}

// Interning per dump: each API name and each kernel once.
class Names {
 public:
  Names(ChunkEncoder* encoder, KernelNamer kernel_name)
      : encoder_(encoder), kernel_name_(kernel_name) {}

  StringId Api(uint16_t api) {
    auto [it, inserted] = apis_.try_emplace(api, 0);
    if (inserted) it->second = encoder_->InternString(ApiName(api));
    return it->second;
  }
  const std::string& Kernel(const void* function) {
    auto [it, inserted] = kernels_.try_emplace(function);
    if (inserted) it->second = kernel_name_(function);
    return it->second;
  }
  // The launch's configuration: its kernel's name (the ring keeps no geometry).
  KernelConfigId Config(const void* function) {
    auto [it, inserted] = configs_.try_emplace(function, 0);
    if (inserted) {
      KernelConfigValue config;
      config.name = encoder_->InternString(Kernel(function));
      it->second = encoder_->InternKernelConfig(config);
    }
    return it->second;
  }

 private:
  ChunkEncoder* encoder_;
  KernelNamer kernel_name_;
  std::map<uint16_t, StringId> apis_;
  std::map<const void*, std::string> kernels_;
  std::map<const void*, KernelConfigId> configs_;
};

void AddCall(const FlightHostEntry& entry, uint64_t dump_ns, Names* names, ChunkEncoder* encoder) {
  ApiCallEvent call;
  call.thread_id = entry.thread_id;
  call.start_ns = entry.start_ns;
  call.duration_ns = EndOf(entry, dump_ns) - entry.start_ns;
  call.name = names->Api(entry.api);
  call.status = entry.status;
  if (entry.stream_plus_one != 0) call.stream = entry.stream_plus_one - 1;
  if (entry.function) call.kernel_config = names->Config(entry.function);
  encoder->AddApiCall(call);
}

void AddRange(const FlightHostEntry& entry, uint64_t dump_ns, ChunkEncoder* encoder) {
  HostRangeEvent range;
  range.thread_id = entry.thread_id;
  range.start_ns = entry.start_ns;
  range.duration_ns = EndOf(entry, dump_ns) - entry.start_ns;
  range.name = encoder->InternString(entry.name);
  range.kind = static_cast<schema::RangeKind>(entry.range_kind);
  encoder->AddHostRange(range);
}

}  // namespace

void EncodeFlightHost(const FlightHostSnapshot& host, uint64_t dump_ns, KernelNamer kernel_name,
                      ChunkEncoder* encoder, FlightDumpValue* flight) {
  flight->host_entries = host.entries_per_thread;
  flight->host_seen = host.seen;
  flight->host_overwritten = host.overwritten;
  flight->host_torn = host.torn;
  flight->host_threads_refused = host.threads_refused;
  flight->host_threads_small = host.threads_small;
  // Also as loss records, so the Data Quality table of every command (and `hang`) says
  // what the rings could not keep, as for the NCCL ring.
  encoder->AddLoss(schema::LOSS_KIND_FLIGHT_HOST_OVERWRITTEN, host.overwritten);
  encoder->AddLoss(schema::LOSS_KIND_FLIGHT_HOST_TORN, host.torn);
  encoder->AddLoss(schema::LOSS_KIND_FLIGHT_HOST_THREAD_REFUSED, host.threads_refused);
  Names names(encoder, kernel_name);
  std::map<uint64_t, const FlightHostEntry*> last_launch;  // by stream + 1
  uint64_t open_ranges = 0;
  for (const FlightHostEntry& entry : host.entries) {
    if (entry.kind == FlightHostKind::kRange) {
      AddRange(entry, dump_ns, encoder);
      open_ranges += entry.end_ns == 0;
      continue;
    }
    AddCall(entry, dump_ns, &names, encoder);
    if (entry.function) last_launch[entry.stream_plus_one] = &entry;  // entries by start
  }
  // Ranges open at the dump end at its time, counted as a window file counts the ranges
  // open at its close.
  encoder->AddLoss(schema::LOSS_KIND_RANGE_OPEN_AT_END, open_ranges);
  for (const auto& [stream_plus_one, entry] : last_launch) {
    flight->last_launches.push_back({stream_plus_one > 0 ? stream_plus_one - 1 : 0,
                                     names.Kernel(entry->function), entry->start_ns,
                                     entry->thread_id});
  }
  std::sort(flight->last_launches.begin(), flight->last_launches.end(),
            [](const FlightLaunchValue& a, const FlightLaunchValue& b) {
              return a.launch_ns > b.launch_ns;
            });
}

}  // namespace prof
