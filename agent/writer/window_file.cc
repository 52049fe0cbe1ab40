#include "agent/writer/window_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "agent/control/log.h"

namespace prof {
namespace {

std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

bool MakeFolders(const std::string& path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    const std::string prefix = path.substr(0, slash);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) return true;
  }
}

WindowFile::WindowFile(const WindowSpec& spec, const std::string& path, FileHeaderValue header,
                       bool needs_cuda_activity)
    : spec_(spec),
      path_(path),
      header_(std::move(header)),
      needs_cuda_activity_(needs_cuda_activity) {
  header_.window_index = spec.index;
  header_.window_first_step = spec.first_step;
  header_.window_end_step = spec.end_step;
  header_.window_origin = spec.origin;
}

bool WindowFile::EnsureOpen() {
  if (writer_) return true;
  if (failed_) return false;
  MakeFolders(FolderOf(path_));
  auto writer = TraceFileWriter::Create(path_, header_);
  if (!writer.ok()) {
    failed_ = true;
    Log(LogLevel::kWarn, "cannot write the trace (%s); this window is not recorded",
        writer.status().message().c_str());
    return false;
  }
  writer_ = std::move(*writer);
  return true;
}

// Past this many events a window that needs CUDA activity is written anyway, so memory
// stays bounded in a long-lived process that records only host ranges.
constexpr uint64_t kMaxEventsWithoutCuda = 1u << 20;

bool WindowFile::Withheld() const {
  return needs_cuda_activity_ && !cuda_activity_seen_ &&
         encoder_.pending_events() < kMaxEventsWithoutCuda;
}

void WindowFile::WarnWriteFailure(const WriteStatus& status) {
  if (write_failure_reported_) return;
  write_failure_reported_ = true;
  Log(LogLevel::kWarn, "%s; the trace ends at its last complete chunk", status.message().c_str());
}

void WindowFile::Flush(bool force) {
  if (finished_ || (!force && encoder_.pending_events() == 0) || Withheld()) return;
  const uint64_t events = encoder_.pending_events();
  const std::string_view chunk = encoder_.Finish(false);
  if (!EnsureOpen()) return;
  WriteStatus status = writer_->AppendChunk(chunk);
  if (!status.ok()) {
    // Counted in the next chunk that makes it to disk (if any does); one warning per file.
    encoder_.AddLoss(schema::LOSS_KIND_WRITE_FAILED, events);
    WarnWriteFailure(status);
  }
}

void WindowFile::AddStepOpenAtSignal(uint64_t now_ns) {
  if (closing_) return;
  // No whole step yet: the main thread stands for whichever thread marks steps (as in a
  // flight dump).
  const uint64_t thread_id =
      last_step_.seen ? last_step_.thread_id : static_cast<uint64_t>(getpid());
  const uint64_t start_ns = last_step_.seen ? last_step_.end_ns : spec_.open_ns;
  if (now_ns < start_ns) return;
  const int64_t number = last_step_.seen ? last_step_.number + 1 : spec_.first_step;
  encoder_.AddStep(StepOpenAtEnd(thread_id, start_ns, now_ns, number));
}

void WindowFile::Finish() {
  if (finished_) return;
  const bool any_file = writer_ != nullptr;
  const bool nothing = encoder_.pending_events() == 0 && !has_losses_;
  if (!any_file && (nothing || Withheld())) {
    finished_ = true;  // nothing was ever recorded in this window: no file
    return;
  }
  const std::string_view chunk = encoder_.Finish(true);
  finished_ = true;
  if (!EnsureOpen()) return;
  WriteStatus status = writer_->AppendChunk(chunk);
  if (status.ok()) status = writer_->Close();
  if (!status.ok()) WarnWriteFailure(status);
  Log(LogLevel::kInfo, "wrote %s", path_.c_str());
}

}  // namespace prof
