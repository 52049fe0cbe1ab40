// libFuzzer target: one chunk payload (a serialized trace.Chunk) through the dictionary and
// the decoder, with a sink that resolves every id the events name.
#include <cstddef>
#include <cstdint>

#include "google/protobuf/stubs/logging.h"

#include "proto/chunk_decoder.h"
#include "proto/file_dictionary.h"
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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  prof::trace::Chunk chunk;
  if (!chunk.ParseFromArray(data, static_cast<int>(size))) return 0;
  prof::FileDictionary dictionary;
  dictionary.AddDefinitions(chunk);
  ResolvingSink sink(&dictionary);
  prof::DecodeChunk(chunk, &sink);
  return 0;
}
