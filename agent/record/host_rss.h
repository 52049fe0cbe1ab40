// The process's resident set size, for the host memory sample the writer thread adds at
// each recorded step boundary (issue: host RSS beside device memory). Read from
// /proc/self/statm by the writer thread only: never on a hook's or a step boundary's path.
//
// Async-signal-safe (open, read, close, sysconf; no allocation), like cpu_sample.h.
#ifndef PROF_AGENT_RECORD_HOST_RSS_H_
#define PROF_AGENT_RECORD_HOST_RSS_H_

#include <cstddef>
#include <cstdint>

namespace prof {

// Bytes resident now; 0 when /proc/self/statm cannot be read.
uint64_t ReadHostRssBytes();

// Parses /proc/self/statm ("size resident shared text lib data dt", in pages): the
// resident pages. False when the text is not such a line.
bool ParseStatmResidentPages(const char* text, size_t length, uint64_t* resident_pages);

}  // namespace prof

#endif  // PROF_AGENT_RECORD_HOST_RSS_H_
