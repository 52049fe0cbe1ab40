// A synthetic trace shaped like training steps, written with the real encoder and writer:
// per group of 20 events, 7 launch+kernel pairs, a copy and a memset pair, an operator and
// a user range; a step every 250 groups (about 5000 events). The GPU keeps up with the
// host, as CUDA forces it to. Used by the analyzer benchmark (figures) and by tests that
// need millions of events or the same timeline cut into window files.
#ifndef PROF_ANALYZER_TESTING_SYNTHETIC_TRACE_H_
#define PROF_ANALYZER_TESTING_SYNTHETIC_TRACE_H_

#include <cstdint>
#include <string>

namespace prof::analyzer {

// Writes about `events` events into `windows` files of one process (one: the file
// `path`; more: bench.window_<i>.prof.pb in the existing folder `path`), each window
// ending on a step boundary. Returns the number of events written (steps included), or 0
// when a file cannot be created.
uint64_t WriteSyntheticTrace(const std::string& path, uint64_t events, int windows = 1);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_TESTING_SYNTHETIC_TRACE_H_
