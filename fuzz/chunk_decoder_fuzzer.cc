// libFuzzer target: one chunk payload (a serialized trace.Chunk) through the dictionary and
// the decoder, with a sink that resolves every id the events name. Also differential: our
// own block reader (chunk_block_reader.h) must take only chunks libprotobuf accepts, into an
// equal message, and the file reader's parse (reusable_chunk.h) must accept exactly those
// libprotobuf accepts and decode them the same; a difference aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/util/message_differencer.h"

#include "proto/chunk_block_reader.h"
#include "proto/chunk_decoder.h"
#include "proto/file_dictionary.h"
#include "proto/reusable_chunk.h"
#include "proto/trace.pb.h"

namespace {

class ResolvingSink : public prof::EventSink {
 public:
  explicit ResolvingSink(prof::FileDictionary* dictionary) : dictionary_(dictionary) {}
  void OnApiCall(const prof::ApiCallEvent& event) override {
    dictionary_->String(event.name);
    dictionary_->KernelConfig(event.kernel_config);
    dictionary_->CallStackNames(event.call_stack);
  }
  void OnHostRange(const prof::HostRangeEvent& event) override {
    dictionary_->String(event.name);
    dictionary_->String(event.domain);
  }
  void OnNcclCall(const prof::NcclCallEvent& event) override {
    dictionary_->Communicator(event.communicator);
  }
  void OnMemory(const prof::MemoryEvent& event) override {
    dictionary_->CallStack(event.call_stack);
  }
  void OnKernel(const prof::KernelEvent& event) override {
    if (const prof::KernelConfigValue* value = dictionary_->KernelConfig(event.config)) {
      dictionary_->String(value->name);
    }
  }
  void OnThreadName(uint64_t, prof::StringId name) override { dictionary_->String(name); }

 private:
  prof::FileDictionary* dictionary_;
};

}  // namespace

// Protobuf logs every string field that is not UTF-8; the fuzzer makes many.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

// Our readers against libprotobuf's parse of the same bytes (`parsed`: whether it accepted).
void CompareReaders(const uint8_t* data, size_t size, bool parsed,
                    const prof::trace::Chunk& chunk) {
  prof::trace::Chunk ours;
  if (prof::MergeChunkReadingBlocks(data, size, &ours) &&
      (!parsed || !google::protobuf::util::MessageDifferencer::Equals(ours, chunk))) {
    abort();
  }
  // Reused from input to input, as the file reader reuses it from chunk to chunk.
  static prof::trace::Chunk* reused = new prof::trace::Chunk;
  if (prof::ParseChunkKeepingCapacity(data, static_cast<int>(size), 1 << 24, reused) != parsed) {
    abort();
  }
  if (!parsed) return;
  prof::EventSink ignoring;
  const prof::ChunkDecodeStats a = prof::DecodeChunk(*reused, &ignoring);
  const prof::ChunkDecodeStats b = prof::DecodeChunk(chunk, &ignoring);
  if (a.events != b.events || a.malformed_blocks != b.malformed_blocks ||
      a.malformed_columns != b.malformed_columns || a.first_problem != b.first_problem) {
    abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  prof::trace::Chunk chunk;
  const bool parsed = chunk.ParseFromArray(data, static_cast<int>(size));
  CompareReaders(data, size, parsed, chunk);
  if (!parsed) return 0;
  prof::FileDictionary dictionary;
  dictionary.AddDefinitions(chunk);
  ResolvingSink sink(&dictionary);
  prof::DecodeChunk(chunk, &sink);
  return 0;
}
