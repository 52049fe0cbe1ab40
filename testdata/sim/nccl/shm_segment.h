// A mapped shared-memory segment laid out by SegmentLayout, with typed accessors.
// Mapping is reference-free: each communicator owns one mapping (ranks in the same
// process simply map the segment several times, which POSIX shared memory allows).
#pragma once

#include <cstddef>
#include <string>

#include "testdata/sim/nccl/shm_layout.h"

namespace simnccl {

class ShmSegment {
 public:
  ShmSegment() = default;
  ~ShmSegment();
  ShmSegment(const ShmSegment&) = delete;
  ShmSegment& operator=(const ShmSegment&) = delete;

  // Creates the segment if needed (every rank may race to do so) and maps it.
  // On failure returns false and fills *error.
  bool OpenOrCreate(const std::string& name, const SegmentLayout& layout, std::string* error);

  // Removes the name; the mapping stays valid for everyone who already has it.
  void Unlink();

  const SegmentLayout& layout() const { return layout_; }
  SegmentHeader* header() const { return reinterpret_cast<SegmentHeader*>(base_); }
  RankSlotHeader* rank_header(int rank) const;
  MailboxHeader* mailbox_header(int sender, int receiver) const;
  unsigned char* slot_data(int rank) const;
  unsigned char* mailbox_data(int sender, int receiver) const;

 private:
  std::string name_;
  SegmentLayout layout_;
  unsigned char* base_ = nullptr;
};

}  // namespace simnccl
