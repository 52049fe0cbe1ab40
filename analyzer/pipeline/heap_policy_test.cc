#include "analyzer/pipeline/heap_policy.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

TEST_CASE("after the policy, a block larger than glibc's mmap threshold comes from the heap") {
  REQUIRE(KeepFreedMemoryForReuse());
  const size_t mapped_before = mallinfo2().hblks;
  constexpr size_t kBytes = size_t{96} << 20;  // above the largest mmap threshold, 32 MiB
  char* block = static_cast<char*>(std::malloc(kBytes));
  REQUIRE(block != nullptr);
  std::memset(block, 1, kBytes);
  CHECK(mallinfo2().hblks == mapped_before);  // not one more mmap'd block
  std::free(block);
  // Freed, it stays in the process: the heap's free space holds it.
  CHECK(mallinfo2().fordblks >= kBytes);
  char* again = static_cast<char*>(std::malloc(kBytes));
  CHECK(again == block);  // the same pages, already faulted in
  std::free(again);
}

}  // namespace
}  // namespace prof::analyzer
