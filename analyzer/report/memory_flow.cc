#include "analyzer/report/memory_flow.h"

#include <algorithm>
#include <utility>

namespace prof::analyzer::report {

uint64_t FirstFitOffset(const std::map<uint64_t, uint64_t>& occupied, uint64_t bytes) {
  uint64_t candidate = 0;
  for (const auto& [offset, size] : occupied) {
    if (offset >= candidate && offset - candidate >= bytes) return candidate;
    candidate = std::max(candidate, offset + size);
  }
  return candidate;
}

MemoryFlowBuilder::Place& MemoryFlowBuilder::PlaceOf(const std::string& name, size_t step_count) {
  Place& place = places_[name];
  // A place first seen now held nothing during the earlier steps.
  place.flow.step_peak_bytes.resize(step_count, 0);
  place.flow.step_end_bytes.resize(step_count, 0);
  return place;
}

void MemoryFlowBuilder::KeepBlock(Place* place, MemoryBlock block) {
  std::vector<MemoryBlock>& blocks = place->flow.blocks;
  blocks.push_back(std::move(block));
  if (blocks.size() < 4 * kMaxBlocks) return;
  // Trim to the largest kMaxBlocks now and then, so memory stays bounded.
  std::nth_element(blocks.begin(), blocks.begin() + kMaxBlocks, blocks.end(),
                   [](const MemoryBlock& a, const MemoryBlock& b) { return a.bytes > b.bytes; });
  blocks.resize(kMaxBlocks);
}

void MemoryFlowBuilder::EndBlock(const LiveBlock& ended, uint64_t time_ns, bool live_at_end) {
  Place& place = places_[MemoryPlaceName(ended.place)];
  const MemoryRecord& allocation = ended.allocation;
  auto offset = offsets_.find(allocation.address);
  MemoryBlock block;
  block.start_ns = allocation.time_ns;
  block.bytes = allocation.bytes;
  block.address = allocation.address;
  block.stack = allocation.call_stack;
  block.offset = offset->second;
  offsets_.erase(offset);
  place.occupied.erase(block.offset);
  place.live_bytes -= std::min(place.live_bytes, block.bytes);
  block.end_ns = std::max(time_ns, block.start_ns);
  block.live_at_end = live_at_end;
  if (!live_at_end) place.flow.live.push_back({time_ns, place.live_bytes});
  KeepBlock(&place, std::move(block));
}

void MemoryFlowBuilder::StartBlock(int32_t place_id, const MemoryRecord& record,
                                   size_t step_count) {
  Place& place = PlaceOf(MemoryPlaceName(place_id), step_count);
  const uint64_t offset = FirstFitOffset(place.occupied, record.bytes);
  place.occupied[offset] = record.bytes;
  offsets_[record.address] = offset;
  place.live_bytes += record.bytes;
  ++place.flow.allocations;
  place.flow.peak_bytes = std::max(place.flow.peak_bytes, place.live_bytes);
  place.flow.live.push_back({record.time_ns, place.live_bytes});
}

void MemoryFlowBuilder::Apply(const MemoryRecord& record, size_t step_count) {
  const MemoryChange change = live_.Apply(record);  // the one pairing rule (model/live_memory.h)
  // An address allocated again without a free in between: the old block ends here.
  if (change.ended) EndBlock(*change.ended, record.time_ns, false);
  if (change.allocated) StartBlock(change.place, record, step_count);
}

void MemoryFlowBuilder::AddWindow(const TraceModel& window,
                                  const std::vector<StepFigures>& window_steps, size_t first_step) {
  const size_t step_count = first_step + window_steps.size();
  for (auto& [name, place] : places_) PlaceOf(name, step_count);
  std::vector<const MemoryRecord*> records;
  records.reserve(window.memory.size());
  for (const MemoryRecord& record : window.memory) records.push_back(&record);
  std::stable_sort(
      records.begin(), records.end(),
      [](const MemoryRecord* a, const MemoryRecord* b) { return a->time_ns < b->time_ns; });
  size_t next = 0;
  auto apply_until = [&](uint64_t time_ns, size_t step) {
    for (; next < records.size() && records[next]->time_ns < time_ns; ++next) {
      Apply(*records[next], step_count);
      if (step >= step_count) continue;
      for (auto& [name, place] : places_) {
        place.flow.step_peak_bytes[step] =
            std::max(place.flow.step_peak_bytes[step], place.live_bytes);
      }
    }
  };
  for (size_t index = 0; index < window_steps.size(); ++index) {
    const StepFigures& step = window_steps[index];
    const size_t global = first_step + index;
    apply_until(step.start_ns, step_count);  // before the step: no step's peak
    for (auto& [name, place] : places_) place.flow.step_peak_bytes[global] = place.live_bytes;
    apply_until(step.start_ns + step.duration_ns, global);
    for (auto& [name, place] : places_) place.flow.step_end_bytes[global] = place.live_bytes;
  }
  apply_until(UINT64_MAX, step_count);
  // The last record may be exactly at UINT64_MAX only in corrupt traces; apply it anyway.
  for (; next < records.size(); ++next) Apply(*records[next], step_count);
}

namespace {

// At most `limit` points: the highest point of each of `limit` equal time buckets, so
// peaks survive thinning.
std::vector<MemoryPoint> Thin(std::vector<MemoryPoint> points, size_t limit) {
  if (points.size() <= limit || points.empty()) return points;
  const uint64_t first = points.front().time_ns;
  const uint64_t span = std::max<uint64_t>(1, points.back().time_ns - first);
  std::vector<MemoryPoint> thinned;
  for (const MemoryPoint& point : points) {
    const size_t bucket = static_cast<size_t>((point.time_ns - first) / (span / limit + 1));
    const size_t last =
        thinned.empty()
            ? SIZE_MAX
            : static_cast<size_t>((thinned.back().time_ns - first) / (span / limit + 1));
    if (bucket != last) {
      thinned.push_back(point);
    } else if (point.bytes > thinned.back().bytes) {
      thinned.back().bytes = point.bytes;
    }
  }
  return thinned;
}

}  // namespace

std::map<std::string, MemoryPlaceFlow> MemoryFlowBuilder::Finish(uint64_t end_ns,
                                                                 size_t step_count) && {
  // In address order, so blocks of equal size keep one order from run to run.
  std::vector<const LiveBlock*> alive;
  for (const auto& [address, block] : live_.blocks()) alive.push_back(&block);
  std::sort(alive.begin(), alive.end(), [](const LiveBlock* a, const LiveBlock* b) {
    return a->allocation.address < b->allocation.address;
  });
  for (const LiveBlock* block : alive) EndBlock(*block, end_ns, true);
  std::map<std::string, MemoryPlaceFlow> flows;
  for (auto& [name, place] : places_) {
    MemoryPlaceFlow flow = std::move(place.flow);
    flow.step_peak_bytes.resize(step_count, 0);
    flow.step_end_bytes.resize(step_count, 0);
    std::sort(flow.blocks.begin(), flow.blocks.end(),
              [](const MemoryBlock& a, const MemoryBlock& b) { return a.bytes > b.bytes; });
    if (flow.blocks.size() > kMaxBlocks) flow.blocks.resize(kMaxBlocks);
    std::sort(flow.blocks.begin(), flow.blocks.end(),
              [](const MemoryBlock& a, const MemoryBlock& b) { return a.start_ns < b.start_ns; });
    flow.live = Thin(std::move(flow.live), kMaxPoints);
    flows[name] = std::move(flow);
  }
  return flows;
}

}  // namespace prof::analyzer::report
