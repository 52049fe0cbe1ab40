// libFuzzer target: a whole trace file through TraceFileReader and the chunk decoder.
// FUZZ_FIX_CRC=1 recomputes the checksums first, so mutations reach the decoder.
#include <cstddef>
#include <cstdint>
#include <string>

#include "google/protobuf/stubs/logging.h"

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
  static const bool fix = prof::fuzz::FixChecksumsMode();
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (fix) prof::fuzz::RecomputeChecksums(&bytes);
  auto reader = prof::TraceFileReader::OpenSource(prof::MakeMemorySource(bytes), "fuzz");
  if (!reader.ok()) return 0;
  prof::FileDictionary dictionary;
  prof::EventSink sink;
  prof::trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    dictionary.AddDefinitions(chunk);
    prof::DecodeChunk(chunk, &sink);
  }
  (*reader)->report().Describe();
  return 0;
}
