// ncclCommSplit and ncclCommShrink: communicators derived from an existing one. The new
// communicator's id is derived from the parent's id, the number of communicators
// derived from the parent so far and the split color (or the excluded ranks), so every
// member computes the same shared-memory segment without any id being passed around,
// which is what makes the calls collective on the parent like in NCCL.
#pragma once

#include <nccl.h>

namespace simnccl {

// Collective over all ranks of `parent`: the ranks' (color, key) pairs are exchanged
// on the host (no kernel, like NCCL's bootstrap), ranks of one color form a
// communicator ordered by (key, parent rank); NCCL_SPLIT_NOCOLOR gives *out = NULL.
ncclResult_t SplitComm(ncclComm_t parent, int color, int key, ncclComm_t* out);

// Called by the ranks that stay: they form a communicator in parent-rank order.
ncclResult_t ShrinkComm(ncclComm_t parent, const int* excluded, int excluded_count,
                        ncclComm_t* out);

}  // namespace simnccl
