#include "analyzer/summary/collective_table.h"

#include <algorithm>

#include "analyzer/model/nccl_kernel_time.h"
#include "analyzer/summary/intervals.h"

namespace prof::analyzer {

CollectiveRecord HostCollectiveRecord(const NcclCall& call) {
  CollectiveRecord record;
  record.comm_hash = call.comm_hash;
  record.sequence = call.sequence_number;
  record.operation = call.operation;
  record.rank_count = call.rank_count;
  record.bytes = call.bytes;
  record.enter_ns = call.start_ns;
  record.end_ns = call.end_ns;
  return record;
}

void AddCollectiveRecords(const AnalysisContext& window, CollectiveTable* table) {
  const TraceModel& model = *window.model;
  const std::vector<NcclKernelSpan> spans = NcclKernelSpanPerCall(model);
  std::vector<IntervalList> in_step(window.steps.size());
  for (size_t i = 0; i < model.nccl_calls.size(); ++i) {
    const NcclCall& call = model.nccl_calls[i];
    if (call.operation == schema::NCCL_OPERATION_GROUP_START ||
        call.operation == schema::NCCL_OPERATION_GROUP_END) {
      continue;
    }
    CollectiveRecord record = HostCollectiveRecord(call);
    record.kernel_timed = spans[i].linked;
    if (spans[i].linked) {
      record.enter_ns = spans[i].start_ns;
      record.end_ns = std::max(spans[i].end_ns, record.enter_ns);
    }
    const int step = FindStep(window, call.start_ns);
    if (step >= 0) {
      const HostRange& range = model.ranges[window.steps[step]];
      record.step = range.step_number;
      const uint64_t start = std::max(record.enter_ns, range.start_ns);
      const uint64_t end = std::min(record.end_ns, range.end_ns);
      if (start < end) in_step[step].push_back({start, end});
    }
    table->collectives.push_back(record);
  }
  for (size_t i = 0; i < window.steps.size(); ++i) {
    const HostRange& range = model.ranges[window.steps[i]];
    table->steps.push_back({range.step_number, range.start_ns, range.end_ns,
                            TotalLength(MergeIntervals(std::move(in_step[i])))});
  }
}

}  // namespace prof::analyzer
