// Stream capture and graphs. Work enqueued on a capturing stream (or on streams that
// joined the capture through an event) becomes graph nodes instead of running; each
// cudaGraphLaunch replays the nodes, in capture order, on the launch stream, with the
// launch's correlation id and the graph's ids in the CUPTI records.
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>

#include <memory>
#include <mutex>
#include <vector>

#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/clock.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/runtime_state.h"
#include "testdata/sim/cudart/scheduler.h"

namespace {

using sim::NullStream;

cudaError_t BeginCapture(cudaStream_t handle, cudaStreamCaptureMode mode, NullStream null_stream) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Stream* stream = sim::ResolveStream(state, handle, null_stream);
  if (stream == nullptr) return cudaErrorInvalidResourceHandle;
  if (stream->is_legacy) return cudaErrorStreamCaptureUnsupported;
  if (stream->capture != nullptr) return cudaErrorIllegalState;
  stream->capture = std::make_shared<sim::Graph>();
  stream->capture->id = state.next_graph_id++;
  stream->capture_origin = true;
  stream->capture_mode = mode;
  return cudaSuccess;
}

cudaError_t EndCapture(cudaStream_t handle, cudaGraph_t* out, NullStream null_stream) {
  if (out == nullptr) return cudaErrorInvalidValue;
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Stream* stream = sim::ResolveStream(state, handle, null_stream);
  if (stream == nullptr) return cudaErrorInvalidResourceHandle;
  if (stream->capture == nullptr) return cudaErrorIllegalState;
  if (!stream->capture_origin) return cudaErrorStreamCaptureUnmatched;
  std::shared_ptr<sim::Graph> graph = stream->capture;
  for (auto& entry : state.streams) {  // every stream that joined this capture leaves it
    if (entry.second.capture == graph) {
      entry.second.capture = nullptr;
      entry.second.capture_origin = false;
    }
  }
  *out = nullptr;
  if (graph->invalidated) return cudaErrorStreamCaptureInvalidated;
  uint64_t graph_handle = sim::NewHandleValue(state);
  state.graphs.emplace(graph_handle, graph);
  *out = reinterpret_cast<cudaGraph_t>(graph_handle);
  return cudaSuccess;
}

cudaError_t IsCapturing(cudaStream_t handle, cudaStreamCaptureStatus* status,
                        NullStream null_stream) {
  if (status == nullptr) return cudaErrorInvalidValue;
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Stream* stream = sim::ResolveStream(state, handle, null_stream);
  if (stream == nullptr) return cudaErrorInvalidResourceHandle;
  if (stream->capture == nullptr) {
    *status = cudaStreamCaptureStatusNone;
  } else {
    *status = stream->capture->invalidated ? cudaStreamCaptureStatusInvalidated
                                           : cudaStreamCaptureStatusActive;
  }
  return cudaSuccess;
}

cudaError_t Instantiate(cudaGraphExec_t* out, cudaGraph_t graph_handle) {
  if (out == nullptr) return cudaErrorInvalidValue;
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto graph = state.graphs.find(reinterpret_cast<uint64_t>(graph_handle));
  if (graph == state.graphs.end()) return cudaErrorInvalidValue;
  uint64_t exec_handle = sim::NewHandleValue(state);
  // The executable keeps its own reference: destroying the graph later does not affect it.
  state.graph_execs.emplace(exec_handle, sim::GraphExec{graph->second});
  *out = reinterpret_cast<cudaGraphExec_t>(exec_handle);
  return cudaSuccess;
}

// Schedules every node under the lock, then applies effects and reports without it.
cudaError_t Launch(cudaGraphExec_t exec_handle, cudaStream_t stream_handle, NullStream null_stream,
                   uint32_t correlation_id) {
  std::vector<sim::WorkItem> nodes;
  std::vector<SimDeviceWork> records;
  {
    sim::RuntimeState& state = sim::State();
    std::lock_guard<std::mutex> lock(state.mutex);
    auto exec = state.graph_execs.find(reinterpret_cast<uint64_t>(exec_handle));
    if (exec == state.graph_execs.end()) return cudaErrorInvalidResourceHandle;
    sim::Stream* stream = sim::ResolveStream(state, stream_handle, null_stream);
    if (stream == nullptr) return cudaErrorInvalidResourceHandle;
    const sim::Graph& graph = *exec->second.graph;
    if (stream->capture != nullptr) {  // a graph launched into a capture becomes its nodes
      for (const sim::WorkItem& node : graph.nodes) stream->capture->nodes.push_back(node);
      return cudaSuccess;
    }
    uint64_t queued = sim::MonotonicNowNs();
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      const sim::WorkItem& node = graph.nodes[i];
      sim::Scheduled when = sim::ScheduleOnStream(state, *stream, node.duration_ns, 0, i == 0);
      SimDeviceWork record = sim::MakeWorkRecord(node, *stream, when, queued, correlation_id);
      record.graph_id = graph.id;
      record.graph_node_id = (static_cast<uint64_t>(graph.id) << 32) | (i + 1);
      records.push_back(record);
    }
    nodes = graph.nodes;
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    sim::ApplyMemoryEffect(nodes[i]);
    sim::ReportDeviceWork(records[i]);
  }
  return cudaSuccess;
}

template <typename Map>
cudaError_t EraseHandle(Map& (*select)(sim::RuntimeState&), uint64_t handle) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  return select(state).erase(handle) == 1 ? cudaSuccess : cudaErrorInvalidValue;
}

}  // namespace

SIM_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000,
                    "cudaStreamBeginCapture");
  return call.Return(BeginCapture(stream, mode, NullStream::kLegacy));
}

SIM_EXPORT cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
                                                   cudaStreamCaptureMode mode) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000,
                    "cudaStreamBeginCapture_ptsz");
  return call.Return(BeginCapture(stream, mode, NullStream::kPerThread));
}

SIM_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000, "cudaStreamEndCapture");
  return call.Return(EndCapture(stream, graph, NullStream::kLegacy));
}

SIM_EXPORT cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t* graph) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000,
                    "cudaStreamEndCapture_ptsz");
  return call.Return(EndCapture(stream, graph, NullStream::kPerThread));
}

SIM_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000, "cudaStreamIsCapturing");
  return call.Return(IsCapturing(stream, status, NullStream::kLegacy));
}

SIM_EXPORT cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                                  cudaStreamCaptureStatus* status) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_ptsz_v10000,
                    "cudaStreamIsCapturing_ptsz");
  return call.Return(IsCapturing(stream, status, NullStream::kPerThread));
}

SIM_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                            unsigned long long /*flags*/) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000, "cudaGraphInstantiate");
  return call.Return(Instantiate(exec, graph));
}

SIM_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                     unsigned long long /*flags*/) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040,
                    "cudaGraphInstantiateWithFlags");
  return call.Return(Instantiate(exec, graph));
}

SIM_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, "cudaGraphLaunch");
  return call.Return(Launch(exec, stream, NullStream::kLegacy, call.correlation_id()));
}

SIM_EXPORT cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000, "cudaGraphLaunch_ptsz");
  return call.Return(Launch(exec, stream, NullStream::kPerThread, call.correlation_id()));
}

SIM_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecDestroy_v10000, "cudaGraphExecDestroy");
  return call.Return(EraseHandle<decltype(sim::RuntimeState::graph_execs)>(
      [](sim::RuntimeState & state) -> auto& { return state.graph_execs; },
      reinterpret_cast<uint64_t>(exec)));
}

SIM_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  sim::ApiCall call(CUPTI_RUNTIME_TRACE_CBID_cudaGraphDestroy_v10000, "cudaGraphDestroy");
  return call.Return(EraseHandle<decltype(sim::RuntimeState::graphs)>(
      [](sim::RuntimeState & state) -> auto& { return state.graphs; },
      reinterpret_cast<uint64_t>(graph)));
}
