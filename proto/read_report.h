// What a TraceFileReader could not read, and why. Every byte of a file is either part of
// a chunk that was returned or covered by an issue here, so nothing is lost silently.
#ifndef PROF_PROTO_READ_REPORT_H_
#define PROF_PROTO_READ_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace prof {

struct ReadIssue {
  enum class Kind {
    kDamagedPreamble,   // magic or version checksum damaged; reading went on
    kUnreadableHeader,  // the header frame is missing or damaged
    kCorruptBytes,      // bytes that are not a valid frame (skipped up to the next one)
    kCorruptChunk,      // a frame whose payload checksum or encoding is wrong
    kTruncatedFrame,    // the file ends inside a frame
    kMissingChunks,     // sequence numbers jump: chunks are missing
    kNoLastChunk,       // the file ends without the agent's final chunk
    kIoError,           // the operating system reported an error while reading
  };
  Kind kind;
  uint64_t offset = 0;  // where in the file
  uint64_t length = 0;  // bytes affected (chunks, for kMissingChunks)
  std::string detail;
};

const char* ReadIssueKindName(ReadIssue::Kind kind);

struct ReadReport {
  uint64_t file_bytes = 0;      // bytes read from the source
  uint64_t chunks_read = 0;     // intact chunks returned
  uint64_t bytes_skipped = 0;   // bytes in no returned frame
  uint64_t chunks_missing = 0;  // from sequence gaps, plus chunks known corrupt
  bool header_read = false;
  bool saw_last_chunk = false;
  std::vector<ReadIssue> issues;  // at most kMaxStoredIssues; issue_count has them all
  uint64_t issue_count = 0;

  static constexpr size_t kMaxStoredIssues = 1000;

  // True when the file was read whole: header, every chunk, and the final chunk.
  bool complete() const { return issue_count == 0; }

  void Add(ReadIssue issue);

  // One line per issue, e.g. "offset 1234: corrupt chunk (payload checksum mismatch)".
  std::vector<std::string> Describe() const;
};

}  // namespace prof

#endif  // PROF_PROTO_READ_REPORT_H_
