// For tools and tests that build the file header as a libprotobuf message
// (trace::FileHeader): a TraceFileWriter for it. The agent uses FileHeaderValue instead
// (trace_file_writer.h), which needs no libprotobuf.
#ifndef PROF_PROTO_HEADER_MESSAGE_H_
#define PROF_PROTO_HEADER_MESSAGE_H_

#include <memory>
#include <string>

#include "proto/trace.pb.h"
#include "proto/trace_file_writer.h"

namespace prof {

// Like TraceFileWriter::Create; the header's format_version is set to kFormatVersion.
WriteResult<std::unique_ptr<TraceFileWriter>> CreateTraceFileWriter(
    const std::string& path, const trace::FileHeader& header);

// Like TraceFileWriter::CreateForDescriptor.
WriteResult<std::unique_ptr<TraceFileWriter>> CreateTraceFileWriterForDescriptor(
    int fd, std::string path_for_messages, const trace::FileHeader& header);

}  // namespace prof

#endif  // PROF_PROTO_HEADER_MESSAGE_H_
