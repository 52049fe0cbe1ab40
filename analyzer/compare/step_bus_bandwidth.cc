#include "analyzer/compare/step_bus_bandwidth.h"

#include <algorithm>
#include <utility>

#include "analyzer/compare/step_metrics.h"
#include "analyzer/summary/nccl_summary.h"

namespace prof::analyzer::compare {
namespace {

// GPU time of the NCCL kernels launched inside each NCCL call: the kernel's launching API
// call runs on the call's thread between its start and end (NCCL calls carry no
// correlation id).
std::vector<uint64_t> KernelTimePerCall(const TraceModel& model) {
  std::vector<uint32_t> order(model.nccl_calls.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  auto key = [&](uint32_t i) { return std::make_pair(model.nccl_calls[i].thread_id, model.nccl_calls[i].start_ns); };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  std::vector<uint64_t> kernel_ns(model.nccl_calls.size(), 0);
  for (const DeviceActivity& activity : model.device_activities) {
    if (!activity.nccl || activity.api_call == kNoIndex) continue;
    const ApiCall& launch = model.api_calls[activity.api_call];
    auto it = std::upper_bound(order.begin(), order.end(), std::make_pair(launch.thread_id, launch.start_ns),
                               [&](const std::pair<uint64_t, uint64_t>& value, uint32_t i) { return value < key(i); });
    if (it == order.begin()) continue;
    const NcclCall& call = model.nccl_calls[*(it - 1)];
    if (call.thread_id != launch.thread_id || launch.start_ns > call.end_ns) continue;
    kernel_ns[*(it - 1)] += activity.end_ns - activity.start_ns;
  }
  return kernel_ns;
}

struct Traffic {
  std::vector<double> bus_bytes;  // bytes x factor, per step
  std::vector<double> time_ns;
};

std::string CollectiveName(trace::NcclOperation operation) {
  const std::string name = trace::NcclOperation_Name(operation);
  return name.rfind("NCCL_OPERATION_", 0) == 0 ? name.substr(15) : name;
}

}  // namespace

std::map<std::string, std::vector<double>> StepBusBandwidth(const AnalysisContext& context) {
  const TraceModel& model = *context.model;
  const std::vector<uint64_t> kernel_ns = KernelTimePerCall(model);
  std::map<std::string, Traffic> traffic;
  for (size_t i = 0; i < model.nccl_calls.size(); ++i) {
    const NcclCall& call = model.nccl_calls[i];
    if (call.operation == trace::NCCL_OPERATION_GROUP_START || call.operation == trace::NCCL_OPERATION_GROUP_END) continue;
    const int step = FindStep(context, call.start_ns);
    if (step < 0) continue;
    const double time = kernel_ns[i] > 0 ? kernel_ns[i] : static_cast<double>(call.end_ns - call.start_ns);
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
      values.push_back(entry.time_ns[step] > 0 ? entry.bus_bytes[step] / entry.time_ns[step] : MissingValue());
    }
  }
  return bandwidth;
}

}  // namespace prof::analyzer::compare
