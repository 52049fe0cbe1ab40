#include "testdata/sim/nccl/shm_segment.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace simnccl {

ShmSegment::~ShmSegment() {
  if (base_ != nullptr) munmap(base_, layout_.total_bytes);
}

bool ShmSegment::OpenOrCreate(const std::string& name, const SegmentLayout& layout,
                              std::string* error) {
  const int fd = shm_open(name.c_str(), O_CREAT | O_RDWR, 0600);
  if (fd < 0) {
    *error = "shm_open(" + name + ") failed: " + std::strerror(errno);
    return false;
  }
  // Every rank truncates to the same size; the first one grows the zero-filled segment,
  // the others change nothing, so the race is harmless.
  struct stat info;
  if (fstat(fd, &info) != 0 || (static_cast<size_t>(info.st_size) < layout.total_bytes &&
                                ftruncate(fd, static_cast<off_t>(layout.total_bytes)) != 0)) {
    *error = "sizing shared memory " + name + " failed: " + std::strerror(errno);
    close(fd);
    return false;
  }
  void* mapped = mmap(nullptr, layout.total_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (mapped == MAP_FAILED) {
    *error = "mmap of " + name + " failed: " + std::strerror(errno);
    return false;
  }
  name_ = name;
  layout_ = layout;
  base_ = static_cast<unsigned char*>(mapped);
  return true;
}

void ShmSegment::Unlink() {
  if (!name_.empty()) shm_unlink(name_.c_str());  // ENOENT when a peer was first: fine
}

RankSlotHeader* ShmSegment::rank_header(int rank) const {
  return reinterpret_cast<RankSlotHeader*>(base_ + layout_.rank_headers_offset) + rank;
}

MailboxHeader* ShmSegment::mailbox_header(int sender, int receiver) const {
  return reinterpret_cast<MailboxHeader*>(base_ + layout_.mailbox_headers_offset) +
         sender * layout_.nranks + receiver;
}

unsigned char* ShmSegment::slot_data(int rank) const {
  return base_ + layout_.slot_data_offset + static_cast<size_t>(rank) * layout_.slot_bytes;
}

unsigned char* ShmSegment::mailbox_data(int sender, int receiver) const {
  const size_t pair = static_cast<size_t>(sender) * layout_.nranks + receiver;
  return base_ + layout_.mailbox_data_offset + pair * layout_.mailbox_bytes;
}

}  // namespace simnccl
