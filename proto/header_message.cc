#include "proto/header_message.h"

#include "proto/framing.h"

namespace prof {
namespace {

std::string Versioned(const trace::FileHeader& header) {
  trace::FileHeader versioned = header;
  versioned.set_format_version(kFormatVersion);
  return versioned.SerializeAsString();
}

}  // namespace

WriteResult<std::unique_ptr<TraceFileWriter>> CreateTraceFileWriter(
    const std::string& path, const trace::FileHeader& header) {
  return TraceFileWriter::CreateWithSerializedHeader(path, Versioned(header));
}

WriteResult<std::unique_ptr<TraceFileWriter>> CreateTraceFileWriterForDescriptor(
    int fd, std::string path_for_messages, const trace::FileHeader& header) {
  return TraceFileWriter::CreateForDescriptor(fd, std::move(path_for_messages), Versioned(header));
}

}  // namespace prof
