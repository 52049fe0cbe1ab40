#include "agent/writer/flight_dump.h"

#include <time.h>
#include <unistd.h>

#include <map>

#include "agent/record/kernel_names.h"
#include "agent/writer/flight_host_dump.h"
#include "agent/writer/record_converter.h"
#include "agent/writer/window_file.h"
#include "proto/chunk_encoder.h"
#include "proto/schema_enums.h"
#include "proto/trace_file_writer.h"

namespace prof {
namespace {

uint64_t RealtimeNs() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

// The file's id for `comm`, defined on first use (its identity from the registry, else a
// process-local one, as the window files do).
class Communicators {
 public:
  explicit Communicators(ChunkEncoder* encoder) : encoder_(encoder) {}

  CommunicatorId IdOf(const void* comm, uint64_t* hash) {
    auto [it, inserted] = ids_.try_emplace(comm);
    if (inserted) {
      const CommunicatorValue value = CommunicatorValueOf(comm);
      it->second = {encoder_->AddCommunicator(value), value.comm_hash};
    }
    *hash = it->second.second;
    return it->second.first;
  }

 private:
  ChunkEncoder* encoder_;
  std::map<const void*, std::pair<CommunicatorId, uint64_t>> ids_;
};

NcclCallEvent EventOf(const FlightCall& call, uint64_t dump_ns) {
  const FlightCallArguments& a = call.arguments;
  NcclCallEvent event;
  event.thread_id = call.thread_id;
  event.start_ns = call.enter_ns;
  const uint64_t end = call.returned ? call.return_ns : dump_ns;
  event.duration_ns = end > call.enter_ns ? end - call.enter_ns : 0;
  event.operation = static_cast<schema::NcclOperation>(a.operation);
  event.count = a.count;
  event.data_type = a.data_type;
  event.bytes = a.bytes;
  event.sequence_number = a.sequence;
  event.stream = a.stream;
  if (a.root_or_peer >= 0) event.root_or_peer = a.root_or_peer;
  if (a.reduction >= 0) event.reduction_op = static_cast<uint32_t>(a.reduction);
  return event;
}

bool IsGroupCall(uint16_t operation) {
  return operation == schema::NCCL_OPERATION_GROUP_START ||
         operation == schema::NCCL_OPERATION_GROUP_END;
}

// The calls and steps into `encoder`; the calls still running or failed into
// `flight->unfinished`.
void EncodeSnapshot(const FlightSnapshot& snapshot, uint64_t dump_ns, ChunkEncoder* encoder,
                    FlightDumpValue* flight) {
  Communicators communicators(encoder);
  for (const FlightCall& call : snapshot.calls) {
    NcclCallEvent event = EventOf(call, dump_ns);
    uint64_t hash = 0;
    if (!IsGroupCall(call.arguments.operation) && call.arguments.comm) {
      event.communicator = communicators.IdOf(call.arguments.comm, &hash);
    }
    encoder->AddNcclCall(event);
    if (FlightCallFinished(call) && call.result == 0) continue;  // ncclSuccess
    flight->unfinished.push_back({hash, call.arguments.sequence,
                                  static_cast<int32_t>(call.arguments.operation), call.enter_ns,
                                  call.thread_id, call.returned ? call.result : 0,
                                  call.returned ? static_cast<int32_t>(call.device) : 0});
  }
  // Step boundaries come from whichever thread marks steps; the main thread stands for it.
  const uint64_t step_thread = static_cast<uint64_t>(getpid());
  for (const FlightStepBoundary& step : snapshot.steps) {
    StepEvent event;
    event.thread_id = step_thread;
    event.start_ns = step.start_ns;
    event.duration_ns = step.end_ns - step.start_ns;
    event.step_number = step.number;
    encoder->AddStep(event);
  }
  // The step in progress at the dump (the hung one), ending at the dump and marked as a
  // window file marks the step open at exit: the ranges open in it (a Backward that never
  // ended) then lie inside a step, so the Overview's ratios stay within the steps, and the
  // Perf Summary does not count it as an iteration.
  if (!snapshot.steps.empty() && dump_ns > snapshot.steps.back().end_ns) {
    const FlightStepBoundary& last = snapshot.steps.back();
    encoder->AddStep(StepOpenAtEnd(step_thread, last.end_ns, dump_ns, last.number + 1));
  }
}

}  // namespace

std::string FlightDumpPath(const std::string& folder, const std::string& worker_name,
                           uint32_t number) {
  return folder + "/" + worker_name + ".flight_" + std::to_string(number) + ".prof.pb";
}

bool WriteFlightDump(const FlightDumpRequest& request, const FlightSnapshot& snapshot,
                     std::string* error) {
  FileHeaderValue header = request.header;
  FlightDumpValue& flight = header.flight;
  flight.reason = request.reason;
  flight.detail = request.detail;
  flight.dump_ns = request.dump_ns;
  flight.calls_seen = snapshot.calls_total;
  flight.calls_overwritten = snapshot.overwritten;
  flight.calls_torn = snapshot.torn;
  flight.ring_entries = snapshot.capacity;
  flight.device_untracked = request.device_untracked;
  ClockAnchorValue anchor;
  anchor.host_monotonic_ns = request.dump_ns;
  anchor.host_realtime_ns = RealtimeNs();
  anchor.reason = "flight dump";
  header.clock_anchors.push_back(anchor);
  ChunkEncoder encoder;
  EncodeSnapshot(snapshot, request.dump_ns, &encoder, &flight);
  // Also as loss records, so every command's Data Quality table shows what the ring lost.
  encoder.AddLoss(schema::LOSS_KIND_FLIGHT_OVERWRITTEN, snapshot.overwritten);
  encoder.AddLoss(schema::LOSS_KIND_FLIGHT_TORN, snapshot.torn);
  EncodeFlightHost(snapshot.host, request.dump_ns, KernelNameOf, &encoder, &flight);
  const size_t slash = request.path.rfind('/');
  if (slash != std::string::npos) MakeFolders(request.path.substr(0, slash));
  auto writer = TraceFileWriter::Create(request.path, header);
  if (!writer.ok()) {
    *error = writer.status().message();
    return false;
  }
  WriteStatus status = (*writer)->AppendChunk(encoder.Finish(true));
  if (status.ok()) status = (*writer)->Close();
  if (!status.ok()) *error = status.message();
  return status.ok();
}

}  // namespace prof
