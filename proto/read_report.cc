#include "proto/read_report.h"

#include "absl/strings/str_format.h"

namespace prof {

const char* ReadIssueKindName(ReadIssue::Kind kind) {
  switch (kind) {
    case ReadIssue::Kind::kDamagedPreamble: return "damaged preamble";
    case ReadIssue::Kind::kUnreadableHeader: return "unreadable header";
    case ReadIssue::Kind::kCorruptBytes: return "corrupt bytes skipped";
    case ReadIssue::Kind::kCorruptChunk: return "corrupt chunk";
    case ReadIssue::Kind::kTruncatedFrame: return "truncated";
    case ReadIssue::Kind::kMissingChunks: return "missing chunks";
    case ReadIssue::Kind::kNoLastChunk: return "unfinished file";
    case ReadIssue::Kind::kIoError: return "read error";
  }
  return "unknown issue";
}

void ReadReport::Add(ReadIssue issue) {
  ++issue_count;
  if (issues.size() < kMaxStoredIssues) issues.push_back(std::move(issue));
}

std::vector<std::string> ReadReport::Describe() const {
  std::vector<std::string> lines;
  lines.reserve(issues.size() + 1);
  for (const ReadIssue& issue : issues) {
    lines.push_back(absl::StrFormat("offset %d: %s (%s)", issue.offset,
                                    ReadIssueKindName(issue.kind), issue.detail));
  }
  if (issue_count > issues.size()) {
    lines.push_back(absl::StrFormat("... and %d more issues", issue_count - issues.size()));
  }
  return lines;
}

}  // namespace prof
