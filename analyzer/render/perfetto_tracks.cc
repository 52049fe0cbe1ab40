#include "analyzer/render/perfetto_tracks.h"

#include "absl/strings/str_cat.h"

namespace prof::analyzer {

namespace {

// GPU "processes" get pids far from real ones (as in the Chrome export).
int32_t GpuPid(size_t process_index, uint32_t device) {
  return static_cast<int32_t>(1000000000 + process_index * 1000 + device);
}

std::string RankSuffix(const TraceModel& model) {
  return model.identity.rank >= 0 ? absl::StrCat(" rank ", model.identity.rank) : "";
}

perfetto::TrackDescriptor* NewTrack(perfetto::TracePacket* packet, uint64_t uuid) {
  packet->set_trusted_packet_sequence_id(kPerfettoSequence);
  perfetto::TrackDescriptor* track = packet->mutable_track_descriptor();
  track->set_uuid(uuid);
  return track;
}

}  // namespace

uint64_t PerfettoUuid(uint64_t kind, uint64_t process_index, uint64_t a, uint64_t b) {
  uint64_t x = kind * 0x9E3779B97F4A7C15ull ^ (process_index + 1) * 0xBF58476D1CE4E5B9ull;
  for (uint64_t part : {a, b}) {
    x ^= part + 0x9E3779B97F4A7C15ull + (x << 6) + (x >> 2);
    x = (x ^ (x >> 31)) * 0x94D049BB133111EBull;
  }
  return x == 0 ? 1 : x;
}

// Trace.packet (field 1, length-delimited): tag, length, bytes.
void PerfettoTracks::Write(const perfetto::TracePacket& packet) {
  buffer_.clear();
  packet.AppendToString(&buffer_);
  unsigned char header[11];
  size_t size = 0;
  header[size++] = 0x0A;
  uint64_t length = buffer_.size();
  do {
    header[size++] = static_cast<unsigned char>((length & 0x7F) | (length > 0x7F ? 0x80 : 0));
    length >>= 7;
  } while (length);
  if (std::fwrite(header, 1, size, out_) != size ||
      std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size()) {
    failed_ = true;
  }
  ++figures_->packets;
}

uint64_t PerfettoTracks::Process(const TraceModel& model, size_t process_index) {
  const uint64_t uuid = PerfettoUuid(kPerfettoProcess, process_index, 0);
  if (!described_.insert(uuid).second) return uuid;
  perfetto::TracePacket packet;
  perfetto::TrackDescriptor* track = NewTrack(&packet, uuid);
  track->mutable_process()->set_pid(static_cast<int32_t>(model.identity.pid));
  track->mutable_process()->set_process_name(
      absl::StrCat("Process ", model.identity.pid, " (CPU)", RankSuffix(model)));
  Write(packet);
  return uuid;
}

uint64_t PerfettoTracks::Thread(const TraceModel& model, size_t process_index, uint64_t thread) {
  const uint64_t uuid = PerfettoUuid(kPerfettoThread, process_index, thread);
  if (!described_.insert(uuid).second) return uuid;
  Process(model, process_index);
  perfetto::TracePacket packet;
  perfetto::TrackDescriptor* track = NewTrack(&packet, uuid);
  track->set_parent_uuid(PerfettoUuid(kPerfettoProcess, process_index, 0));
  perfetto::ThreadDescriptor* descriptor = track->mutable_thread();
  descriptor->set_pid(static_cast<int32_t>(model.identity.pid));
  descriptor->set_tid(static_cast<int64_t>(thread));
  const auto name = model.thread_names.find(thread);
  descriptor->set_thread_name(
      name == model.thread_names.end()
          ? absl::StrCat("thread ", thread)
          : absl::StrCat("thread ", thread, ":", model.names.Get(name->second)));
  Write(packet);
  return uuid;
}

uint64_t PerfettoTracks::Gpu(const TraceModel& model, size_t process_index, uint32_t device) {
  const uint64_t uuid = PerfettoUuid(kPerfettoGpu, process_index, device);
  if (!described_.insert(uuid).second) return uuid;
  perfetto::TracePacket packet;
  perfetto::TrackDescriptor* track = NewTrack(&packet, uuid);
  track->mutable_process()->set_pid(GpuPid(process_index, device));
  track->mutable_process()->set_process_name(absl::StrCat("GPU ", device, RankSuffix(model)));
  Write(packet);
  return uuid;
}

uint64_t PerfettoTracks::Stream(const TraceModel& model, size_t process_index, uint32_t device,
                                uint32_t stream) {
  return Child(Gpu(model, process_index, device),
               PerfettoUuid(kPerfettoStream, process_index, device, stream),
               absl::StrCat("stream ", stream), false);
}

uint64_t PerfettoTracks::Child(uint64_t parent, uint64_t uuid, const std::string& name,
                               bool bytes_counter) {
  if (!described_.insert(uuid).second) return uuid;
  perfetto::TracePacket packet;
  perfetto::TrackDescriptor* track = NewTrack(&packet, uuid);
  track->set_parent_uuid(parent);
  track->set_name(name);
  if (bytes_counter)
    track->mutable_counter()->set_unit(perfetto::CounterDescriptor::UNIT_SIZE_BYTES);
  Write(packet);
  return uuid;
}

}  // namespace prof::analyzer
