#include "analyzer/compare/step_bus_bandwidth.h"

#include <algorithm>
#include <utility>

#include "analyzer/compare/step_metrics.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/model/nccl_kernel_time.h"
#include "analyzer/summary/nccl_summary.h"
#include "proto/schema_names.h"

namespace prof::analyzer::compare {
namespace {

struct Traffic {
  std::vector<double> bus_bytes;  // bytes x factor, per step
  std::vector<double> time_ns;
};

std::string CollectiveName(schema::NcclOperation operation) { return NcclOperationName(operation); }

}  // namespace

std::map<std::string, std::vector<double>> StepBusBandwidth(const AnalysisContext& context) {
  const TraceModel& model = *context.model;
  const std::vector<uint64_t> kernel_ns = NcclKernelTimePerCall(model);
  std::map<std::string, Traffic> traffic;
  for (size_t i = 0; i < model.nccl_calls.size(); ++i) {
    const NcclCall& call = model.nccl_calls[i];
    if (call.operation == schema::NCCL_OPERATION_GROUP_START ||
        call.operation == schema::NCCL_OPERATION_GROUP_END)
      continue;
    const int step = FindStep(context, call.start_ns);
    if (step < 0) continue;
    const double time =
        kernel_ns[i] > 0 ? kernel_ns[i] : static_cast<double>(call.end_ns - call.start_ns);
    const double bus_bytes = call.bytes * BusBandwidthFactor(call.operation, call.rank_count);
    for (const std::string& name : {std::string(), CollectiveName(call.operation)}) {
      Traffic& entry = traffic[name];
      if (entry.time_ns.empty()) {
        entry.time_ns.assign(context.steps.size(), 0);
        entry.bus_bytes.assign(context.steps.size(), 0);
      }
      entry.time_ns[step] += time;
      entry.bus_bytes[step] += bus_bytes;
    }
  }
  std::map<std::string, std::vector<double>> bandwidth;
  for (const auto& [name, entry] : traffic) {
    std::vector<double>& values = bandwidth[name];
    for (size_t step = 0; step < entry.time_ns.size(); ++step) {
      values.push_back(entry.time_ns[step] > 0 ? entry.bus_bytes[step] / entry.time_ns[step]
                                               : MissingValue());
    }
  }
  return bandwidth;
}

}  // namespace prof::analyzer::compare
