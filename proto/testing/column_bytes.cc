#include "proto/testing/column_bytes.h"

#include <sys/stat.h>

#include <algorithm>
#include <utility>
#include <vector>

#include <google/protobuf/wire_format.h>

#include "proto/chunk_decoder.h"
#include "proto/trace_file_reader.h"

namespace prof::testing {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::internal::WireFormat;

// Adds the size of every field of `block` (a column block) under "Block.field".
void AddBlock(const Message& block, ColumnBytes* measured) {
  const Descriptor& descriptor = *block.GetDescriptor();
  for (int i = 0; i < descriptor.field_count(); ++i) {
    const FieldDescriptor* field = descriptor.field(i);
    const size_t size = WireFormat::FieldByteSize(field, block);
    if (size != 0) measured->columns[descriptor.name() + "." + field->name()] += size;
  }
}

// The blocks of a ThreadEvents or StreamEvents: its message fields.
void AddGroup(const Message& group, ColumnBytes* measured) {
  const Descriptor& descriptor = *group.GetDescriptor();
  const Reflection& reflection = *group.GetReflection();
  for (int i = 0; i < descriptor.field_count(); ++i) {
    const FieldDescriptor* field = descriptor.field(i);
    if (field->message_type() == nullptr || !reflection.HasField(group, field)) continue;
    AddBlock(reflection.GetMessage(group, field), measured);
  }
}

// Counts events without keeping them.
class CountingSink : public EventSink {
 public:
  void OnApiCall(const ApiCallEvent&) override { ++events; }
  void OnHostRange(const HostRangeEvent&) override { ++events; }
  void OnStep(const StepEvent&) override { ++events; }
  void OnNcclCall(const NcclCallEvent&) override { ++events; }
  void OnMemory(const MemoryEvent&) override { ++events; }
  void OnKernel(const KernelEvent&) override { ++events; }
  void OnMemcpy(const MemcpyEvent&) override { ++events; }
  void OnMemset(const MemsetEvent&) override { ++events; }
  void OnSynchronization(const SynchronizationEvent&) override { ++events; }
  uint64_t events = 0;
};

}  // namespace

ColumnBytes MeasureColumnBytes(const std::string& path) {
  ColumnBytes measured;
  struct stat status {};
  if (stat(path.c_str(), &status) != 0) {
    measured.problem = path + ": cannot stat";
    return measured;
  }
  measured.file_bytes = static_cast<uint64_t>(status.st_size);
  auto reader = TraceFileReader::Open(path);
  if (!reader.ok()) {
    measured.problem = std::string(reader.status().message());
    return measured;
  }
  trace::Chunk chunk;
  CountingSink sink;
  while ((*reader)->Next(&chunk)) {
    for (const trace::ThreadEvents& thread : chunk.threads()) AddGroup(thread, &measured);
    for (const trace::StreamEvents& stream : chunk.streams()) AddGroup(stream, &measured);
    DecodeChunk(chunk, &sink);
  }
  measured.events = sink.events;
  return measured;
}

void PrintColumnBytes(const ColumnBytes& measured, std::FILE* out) {
  std::vector<std::pair<std::string, uint64_t>> rows(measured.columns.begin(),
                                                     measured.columns.end());
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
  const double events = static_cast<double>(std::max<uint64_t>(measured.events, 1));
  const double file = static_cast<double>(std::max<uint64_t>(measured.file_bytes, 1));
  uint64_t in_columns = 0;
  std::fprintf(out, "%-44s %10s %8s\n", "column (bytes over the file)", "bytes/event", "share");
  uint64_t small = 0, small_columns = 0;  // under 0.1% of the file each: one line
  for (const auto& [name, bytes] : rows) {
    in_columns += bytes;
    if (bytes * 1000 < measured.file_bytes) {
      small += bytes;
      ++small_columns;
      continue;
    }
    std::fprintf(out, "%-44s %10.3f %7.1f%%\n", name.c_str(), bytes / events, 100 * bytes / file);
  }
  if (small_columns > 0) {
    const std::string name = std::to_string(small_columns) + " columns under 0.1% each";
    std::fprintf(out, "%-44s %10.3f %7.1f%%\n", name.c_str(), small / events, 100 * small / file);
  }
  const uint64_t rest = measured.file_bytes - std::min(in_columns, measured.file_bytes);
  std::fprintf(out, "%-44s %10.3f %7.1f%%\n", "everything else (framing, definitions, headers)",
               rest / events, 100 * rest / file);
  std::fprintf(out, "%-44s %10.3f   (%llu events, %llu bytes)\n", "total",
               measured.file_bytes / events, static_cast<unsigned long long>(measured.events),
               static_cast<unsigned long long>(measured.file_bytes));
}

}  // namespace prof::testing
