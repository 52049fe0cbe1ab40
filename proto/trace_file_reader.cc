#include "proto/trace_file_reader.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_format.h"
#include "proto/chunk_guard.h"
#include "proto/crc32c.h"
#include "proto/reusable_chunk.h"

namespace prof {
namespace {

constexpr size_t kReadBlockSize = 1 << 20;

}  // namespace

absl::StatusOr<std::unique_ptr<TraceFileReader>> TraceFileReader::Open(const std::string& path) {
  auto source = OpenFileSource(path);
  if (!source.ok()) return source.status();
  return OpenSource(std::move(*source), path);
}

absl::StatusOr<std::unique_ptr<TraceFileReader>> TraceFileReader::OpenSource(
    std::unique_ptr<ByteSource> source, std::string name_for_messages) {
  std::unique_ptr<TraceFileReader> reader(
      new TraceFileReader(std::move(source), std::move(name_for_messages)));
  reader->total_size_ = reader->source_->TotalSize();
  absl::Status status = reader->ReadPreambleAndHeader();
  if (!status.ok()) return status;
  return reader;
}

absl::Status TraceFileReader::ReadPreambleAndHeader() {
  if (!Fill(kPreambleSize)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s is not a profiler trace: %d bytes, shorter than a trace preamble", name_, end_));
  }
  Preamble preamble;
  const PreambleCheck check = DecodePreamble(buffer_.data() + begin_, &preamble);
  if (check == PreambleCheck::kBadMagic) {
    // A damaged magic still counts as a trace if a frame follows where it should.
    FrameHeader frame;
    if (!Fill(kPreambleSize + kFrameHeaderSize) ||
        !DecodeFrameHeader(buffer_.data() + begin_ + kPreambleSize, &frame)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s is not a profiler trace (no trace magic at its start)", name_));
    }
    report_.Add({ReadIssue::Kind::kDamagedPreamble, 0, kPreambleSize, "magic damaged"});
  } else if (check == PreambleCheck::kBadChecksum) {
    report_.Add({ReadIssue::Kind::kDamagedPreamble, 0, kPreambleSize,
                 "version checksum mismatch; the header's version is used"});
  } else {
    format_version_ = preamble.format_version;
  }
  if (format_version_ > kFormatVersion) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s has trace format version %d, newer than this reader's %d: use a newer profanalyze",
        name_, format_version_, kFormatVersion));
  }
  if (format_version_ < kOldestReadableFormatVersion) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s has trace format version %d, older than the oldest this reader supports (%d)", name_,
        format_version_, kOldestReadableFormatVersion));
  }
  Consume(kPreambleSize);

  FrameHeader frame;
  const uint8_t* payload = nullptr;
  const uint64_t header_offset = file_offset_;
  const uint64_t issues_before = report_.issue_count;
  if (!NextFrame(&frame, &payload)) {
    report_.Add({ReadIssue::Kind::kUnreadableHeader, header_offset, 0, "no intact frame found"});
    return absl::OkStatus();
  }
  if (frame.type == FrameType::kFileHeader &&
      WithinParseBound(trace::FileHeader::descriptor(), frame, payload) &&
      header_.ParseFromArray(payload, static_cast<int>(frame.payload_size))) {
    report_.header_read = true;
    Consume(kFrameHeaderSize + frame.payload_size);
    if (check != PreambleCheck::kValid && header_.format_version() > kFormatVersion) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "%s has trace format version %d, newer than this reader's %d: use a newer profanalyze",
          name_, header_.format_version(), kFormatVersion));
    }
    return absl::OkStatus();
  }
  if (report_.issue_count == issues_before) {  // else the damage is already reported
    report_.Add({ReadIssue::Kind::kUnreadableHeader, header_offset, 0,
                 "the first intact frame is not a valid header"});
  }
  if (frame.type == FrameType::kChunk) {
    have_pending_chunk_ = DecodeChunk(frame, payload, &pending_chunk_);
  }
  Consume(kFrameHeaderSize + frame.payload_size);
  return absl::OkStatus();
}

bool TraceFileReader::Next(trace::Chunk* chunk) {
  if (have_pending_chunk_) {
    have_pending_chunk_ = false;
    chunk->Swap(&pending_chunk_);
    return true;
  }
  FrameHeader frame;
  const uint8_t* payload = nullptr;
  while (NextFrame(&frame, &payload)) {
    const uint64_t offset = file_offset_;
    const bool decoded = frame.type == FrameType::kChunk && DecodeChunk(frame, payload, chunk);
    Consume(kFrameHeaderSize + frame.payload_size);
    if (decoded) return true;
    if (frame.type == FrameType::kFileHeader) {
      report_.Add({ReadIssue::Kind::kCorruptChunk, offset, frame.payload_size,
                   "a second header frame in the middle of the file"});
    }
  }
  Finish();
  return false;
}

bool TraceFileReader::WithinParseBound(const google::protobuf::Descriptor* type,
                                       const FrameHeader& frame, const uint8_t* payload) {
  const uint64_t limit = ParsedBytesLimit(frame.payload_size);
  work_.payload_bytes_checked += frame.payload_size;
  const uint64_t estimate = ParsedBytesEstimate(type, payload, frame.payload_size, limit);
  if (estimate <= limit) return true;
  report_.Add({ReadIssue::Kind::kCorruptChunk, file_offset_, frame.payload_size,
               absl::StrFormat("checksum matches but parsing would take more than %d bytes "
                               "(the limit for a %d-byte frame): not read",
                               limit, frame.payload_size)});
  return false;
}

bool TraceFileReader::DecodeChunk(const FrameHeader& frame, const uint8_t* payload,
                                  trace::Chunk* chunk) {
  if (!WithinParseBound(trace::Chunk::descriptor(), frame, payload)) {
    ++report_.chunks_missing;
    return false;
  }
  // What the last chunks left is held to the bound of a parsed chunk (chunk_guard.h).
  const uint64_t keep_at_most = 3 * ParsedBytesLimit(frame.payload_size);
  if (!ParseChunkKeepingCapacity(payload, static_cast<int>(frame.payload_size), keep_at_most,
                                 chunk)) {
    report_.Add({ReadIssue::Kind::kCorruptChunk, file_offset_, frame.payload_size,
                 "checksum matches but the chunk does not decode"});
    ++report_.chunks_missing;
    return false;
  }
  if (chunk->sequence() > next_sequence_) {
    const uint64_t missing = chunk->sequence() - next_sequence_;
    report_.Add(
        {ReadIssue::Kind::kMissingChunks, file_offset_, missing,
         absl::StrFormat("chunks %d to %d are missing", next_sequence_, chunk->sequence() - 1)});
    report_.chunks_missing += missing;
  }
  next_sequence_ = std::max(next_sequence_, chunk->sequence() + 1);
  if (chunk->last_chunk()) report_.saw_last_chunk = true;
  ++report_.chunks_read;
  return true;
}

bool TraceFileReader::NextFrame(FrameHeader* frame, const uint8_t** payload) {
  while (Fill(kFrameHeaderSize)) {
    const uint8_t* at = buffer_.data() + begin_;
    ++work_.headers_examined;
    if (!DecodeFrameHeader(at, frame) || !FitsInFile(*frame)) {
      SkipToNextCandidate();
      continue;
    }
    if (!Fill(kFrameHeaderSize + frame->payload_size)) {
      // The file ends inside this frame. Its header may also be a chance match inside
      // damaged bytes, so keep scanning what is left.
      SkipToNextCandidate();
      continue;
    }
    at = buffer_.data() + begin_;
    work_.payload_bytes_checked += frame->payload_size;
    if (Crc32c(at + kFrameHeaderSize, frame->payload_size) != frame->payload_crc) {
      // The frame header passed its own checksum, so its size is trusted: skip the frame.
      CloseSkippedRegion();
      const bool is_chunk = frame->type == FrameType::kChunk;
      report_.Add({is_chunk ? ReadIssue::Kind::kCorruptChunk : ReadIssue::Kind::kUnreadableHeader,
                   file_offset_, frame->payload_size, "payload checksum mismatch"});
      if (is_chunk) ++report_.chunks_missing;
      report_.bytes_skipped += kFrameHeaderSize + frame->payload_size;
      Consume(kFrameHeaderSize + frame->payload_size);
      continue;
    }
    CloseSkippedRegion();
    *payload = at + kFrameHeaderSize;
    return true;
  }
  // Fewer bytes than a frame header are left: they cannot hold a frame.
  Skip(end_ - begin_);
  CloseSkippedRegion();
  return false;
}

bool TraceFileReader::FitsInFile(const FrameHeader& frame) const {
  if (!total_size_) return true;
  const uint64_t known_end = std::max(*total_size_, report_.file_bytes);
  return file_offset_ + kFrameHeaderSize + frame.payload_size <= known_end;
}

// Linear overall: nothing is moved once the source is at its end; otherwise the buffer is
// compacted only when the bytes wanted do not fit after begin_, and is then filled with
// room for half the request again, so the bytes moved are amortized against bytes consumed.
// It grows by doubling as bytes arrive, never ahead of them: memory is at most twice what
// it holds, whatever size a frame header claims.
bool TraceFileReader::Fill(size_t size) {
  if (end_ - begin_ >= size) return true;
  if (source_done_) return false;
  uint64_t wanted = std::max<uint64_t>(kReadBlockSize, size + size / 2);
  if (total_size_ && *total_size_ >= file_offset_) {  // no more than the file holds
    wanted = std::min<uint64_t>(wanted, std::max<uint64_t>(size, *total_size_ - file_offset_));
  }
  if (begin_ > 0 && begin_ + wanted > buffer_.size()) {
    work_.bytes_moved += end_ - begin_;
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  const uint64_t target_end = begin_ + wanted;
  while (!source_done_ && end_ < target_end) {
    if (end_ == buffer_.size()) {
      buffer_.resize(
          std::min<uint64_t>(target_end, std::max<uint64_t>(kReadBlockSize, 2 * buffer_.size())));
    }
    auto got = source_->Read(buffer_.data() + end_, buffer_.size() - end_);
    if (!got.ok()) {
      report_.Add({ReadIssue::Kind::kIoError, file_offset_ + (end_ - begin_), 0,
                   std::string(got.status().message())});
      source_done_ = true;
    } else if (*got == 0) {
      source_done_ = true;
    } else {
      end_ += *got;
      report_.file_bytes += *got;
    }
  }
  return end_ - begin_ >= size;
}

// Skips at least one byte, up to the next byte that could start a frame magic.
void TraceFileReader::SkipToNextCandidate() {
  const uint8_t* from = buffer_.data() + begin_ + 1;
  const uint8_t* limit = buffer_.data() + end_;
  const void* found = std::memchr(from, kFrameMagic[0], static_cast<size_t>(limit - from));
  const uint8_t* next = found ? static_cast<const uint8_t*>(found) : limit;
  Skip(static_cast<size_t>(next - (buffer_.data() + begin_)));
}

void TraceFileReader::Consume(size_t size) {
  begin_ += size;
  file_offset_ += size;
}

void TraceFileReader::Skip(size_t size) {
  if (size == 0) return;
  if (skip_length_ == 0) skip_start_ = file_offset_;
  skip_length_ += size;
  report_.bytes_skipped += size;
  Consume(size);
}

void TraceFileReader::CloseSkippedRegion() {
  if (skip_length_ == 0) return;
  const bool at_end = source_done_ && begin_ == end_;
  report_.Add({at_end ? ReadIssue::Kind::kTruncatedFrame : ReadIssue::Kind::kCorruptBytes,
               skip_start_, skip_length_,
               at_end ? absl::StrFormat("the last %d bytes hold no complete frame", skip_length_)
                      : absl::StrFormat("%d bytes skipped", skip_length_)});
  skip_length_ = 0;
}

void TraceFileReader::Finish() {
  if (finished_) return;
  finished_ = true;
  if (!report_.saw_last_chunk) {
    report_.Add(
        {ReadIssue::Kind::kNoLastChunk, file_offset_, 0,
         absl::StrFormat("no final chunk after chunk %d: the program may have been "
                         "killed, or the file is still being written",
                         next_sequence_ == 0 ? -1 : static_cast<int64_t>(next_sequence_) - 1)});
  }
}

}  // namespace prof
