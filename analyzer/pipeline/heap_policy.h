// The allocator policy of the analyzer's own executables (profanalyze), set once at the
// start of main: freed memory stays in the process for the next window or slice instead of
// going back to the kernel.
//
// Why: glibc serves every block over 32 MiB (a model's record vectors: 1M calls are 80 MB)
// with its own mmap and unmaps it on free, so each slice of a large file, and each window
// file, faulted in fresh zeroed pages and unmapped them again; on a 10M-event file that
// was 40 % of the CPU time (perf: exc_page_fault, munmap). Served from the heap and kept,
// the pages of one slice are reused by the next. The cost: the peak resident size stays
// resident until exit (the pipeline holds a bounded slice, so the peak stays bounded).
//
// Never for a library loaded into someone else's process (the Python extension): the host's
// allocator is not ours to tune.
#ifndef PROF_ANALYZER_PIPELINE_HEAP_POLICY_H_
#define PROF_ANALYZER_PIPELINE_HEAP_POLICY_H_

namespace prof::analyzer {

// Returns false where the allocator refused (not glibc's, e.g. under a sanitizer); then
// nothing changed and everything still works, only slower.
bool KeepFreedMemoryForReuse();

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_PIPELINE_HEAP_POLICY_H_
