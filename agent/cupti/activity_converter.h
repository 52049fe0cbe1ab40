// Turns the records of one completed CUPTI buffer into trace events: kernels, memcpys,
// memsets and synchronizations, each in the window the router picks from its correlation
// id (else its start, converted to the host clock). Device timestamps stay raw, in
// CLOCK_DOMAIN_CUPTI: the analyzer aligns them with the clock anchors. Records are walked
// with the loaded CUPTI's cuptiActivityGetNextRecord (never by sizeof) and read through the
// 13.0 headers' latest structs: record_layouts.h checks, field by field, that CUPTI 12.x's
// structs (Kernel9, Memcpy5, Synchronization) hold every field read here at the same offset.
//
// Thread safety: writer thread only.
#ifndef PROF_AGENT_CUPTI_ACTIVITY_CONVERTER_H_
#define PROF_AGENT_CUPTI_ACTIVITY_CONVERTER_H_

#include <cupti.h>

#include <cstdint>

#include <unordered_map>
#include "agent/cupti/activity_buffers.h"
#include "agent/writer/device_source.h"
#include "proto/events.h"

namespace prof {

struct ConversionCounts {
  uint64_t converted = 0;
  uint64_t incomplete = 0;       // start or end unknown: in flight at a forced flush
  uint64_t unrouted = 0;         // no window was left to take them
  uint64_t corrupt_buffers = 0;  // walking stopped at an unreadable record
};

class ActivityConverter {
 public:
  using NextRecordFunction = decltype(&::cuptiActivityGetNextRecord);

  explicit ActivityConverter(NextRecordFunction next_record) : next_record_(next_record) {}

  // CUPTI time minus host CLOCK_MONOTONIC, from the latest anchor; only used to pick
  // windows by time.
  void SetClockOffset(int64_t cupti_minus_host_ns) { cupti_minus_host_ns_ = cupti_minus_host_ns; }

  void ConvertBuffer(const ActivityBuffer& buffer, WindowRouter& router, ConversionCounts* counts);

 private:
  void Convert(const CUpti_Activity& record, WindowRouter& router, ConversionCounts* counts);
  void AddKernel(const CUpti_ActivityKernel10& record, WindowRouter& router,
                 ConversionCounts* counts);
  void AddMemcpy(const CUpti_ActivityMemcpy6& record, WindowRouter& router,
                 ConversionCounts* counts);
  void AddMemset(const CUpti_ActivityMemset4& record, WindowRouter& router,
                 ConversionCounts* counts);
  void AddSynchronization(const CUpti_ActivitySynchronization2& record, WindowRouter& router,
                          ConversionCounts* counts);

  // The window for a record, or nullptr (counted) when it is incomplete or unroutable.
  DeviceWindow* WindowOf(uint32_t correlation_id, uint64_t start, uint64_t end,
                         WindowRouter& router, ConversionCounts* counts);
  StreamKey KeyOf(uint32_t device, uint32_t context, uint32_t stream);
  uint32_t DeviceOfContext(uint32_t context) const;

  NextRecordFunction next_record_;
  int64_t cupti_minus_host_ns_ = 0;
  // Learned from kernel/memcpy/memset records: synchronization records carry no device.
  std::unordered_map<uint32_t, uint32_t> device_of_context_;
};

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_ACTIVITY_CONVERTER_H_
