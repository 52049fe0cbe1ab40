#include "proto/chunk_decoder.h"

#include "proto/block_decoder.h"

namespace prof {

ChunkDecodeStats DecodeChunk(const trace::Chunk& chunk, EventSink* sink) {
  if (chunk.has_process()) {
    sink->OnProcess(chunk.process().name_id(), chunk.process().parent_pid());
  }
  for (const trace::ThreadName& name : chunk.thread_names()) {
    sink->OnThreadName(name.thread_id(), name.name_id());
  }
  for (const trace::ClockAnchor& anchor : chunk.clock_anchors()) sink->OnClockAnchor(anchor);
  for (const trace::CpuUsage& usage : chunk.cpu_usage()) sink->OnCpuUsage(usage);
  for (const trace::MemorySample& sample : chunk.memory_samples()) {
    sink->OnMemorySample({sample.time_ns(), sample.device(), sample.allocated(), sample.reserved(),
                          sample.peak(), sample.rss()});
  }
  for (const trace::LossCounter& loss : chunk.losses()) {
    sink->OnLoss(static_cast<schema::LossKind>(loss.kind()), loss.count());
    if (loss.step_known()) {
      sink->OnStepLoss(static_cast<schema::LossKind>(loss.kind()), loss.count(),
                       loss.step_number());
    }
  }
  block_decoding::BlockDecoder decoder(chunk.sequence(), sink);
  for (const trace::ThreadEvents& thread : chunk.threads()) decoder.Thread(thread);
  for (const trace::StreamEvents& stream : chunk.streams()) decoder.Stream(stream);
  return decoder.stats();
}

}  // namespace prof
