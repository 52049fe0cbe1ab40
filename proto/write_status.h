// The outcome of a trace-file write, without Abseil (the agent links the writer and must
// not load Abseil into the host program). Shaped like absl::Status / absl::StatusOr so
// callers read the same: ok(), code(), message(), and *result for the value.
//
//   prof::WriteStatus status = writer->AppendChunk(bytes);
//   if (!status.ok()) Log(..., status.message().c_str());
#ifndef PROF_PROTO_WRITE_STATUS_H_
#define PROF_PROTO_WRITE_STATUS_H_

#include <string>
#include <utility>

namespace prof {

class WriteStatus {
 public:
  enum class Code {
    kOk,
    kInvalidArgument,
    kFailedPrecondition,
    kNotFound,
    kPermissionDenied,
    kResourceExhausted,  // disk full, quota
    kInternal,
  };

  WriteStatus() = default;  // ok
  WriteStatus(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  // For callers that have nothing to do about a failure; says so where it is called.
  void IgnoreError() const {}

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

// A value, or the status that says why there is none.
template <typename T>
class WriteResult {
 public:
  WriteResult(T value) : value_(std::move(value)) {}  // NOLINT: implicit, like StatusOr
  WriteResult(WriteStatus status) : status_(std::move(status)) {}  // NOLINT

  bool ok() const { return status_.ok(); }
  const WriteStatus& status() const { return status_; }
  T& operator*() { return value_; }
  const T& operator*() const { return value_; }
  T* operator->() { return &value_; }

 private:
  WriteStatus status_;
  T value_{};
};

}  // namespace prof

#endif  // PROF_PROTO_WRITE_STATUS_H_
