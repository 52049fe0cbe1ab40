// libFuzzer target: a whole trace file, checksums always recomputed, read into a TraceModel
// exactly as profanalyze does (LoadTraceFile's loop, over memory), then rendered as far as
// the model: clock conversion and correlation.
#include <cstddef>
#include <cstdint>
#include <string>

#include "google/protobuf/stubs/logging.h"

#include "analyzer/model/model_builder.h"
#include "fuzz/fuzz_support.h"
#include "proto/chunk_decoder.h"
#include "proto/file_dictionary.h"
#include "proto/trace_file_reader.h"

// Protobuf logs every string field that is not UTF-8; the fuzzer makes many.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  prof::fuzz::RecomputeChecksums(&bytes);
  auto reader = prof::TraceFileReader::OpenSource(prof::MakeMemorySource(bytes), "fuzz");
  if (!reader.ok()) return 0;
  prof::FileDictionary dictionary;
  prof::analyzer::ModelBuilder builder(&dictionary, (*reader)->header());
  prof::trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    dictionary.AddDefinitions(chunk);
    prof::DecodeChunk(chunk, &builder);
  }
  prof::analyzer::TraceModel model = std::move(builder).Finish("fuzz");
  return model.event_count > 0 ? 0 : 0;
}
