#include "testdata/sim/nccl/unique_id.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <random>

#include "testdata/sim/nccl/env_config.h"

namespace simnccl {
namespace {

constexpr char kMagic[8] = {'S', 'I', 'M', 'N', 'C', 'C', 'L', '1'};

// Fixed byte positions inside ncclUniqueId::internal (128 bytes).
constexpr size_t kMagicOffset = 0;
constexpr size_t kSlotBytesOffset = 8;
constexpr size_t kMailboxBytesOffset = 16;
constexpr size_t kNameOffset = 24;
constexpr size_t kNameCapacity = NCCL_UNIQUE_ID_BYTES - kNameOffset;

}  // namespace

UniqueIdContents MakeFreshUniqueId() {
  static std::atomic<uint32_t> counter{0};
  std::random_device entropy;
  const uint64_t random_bits = (static_cast<uint64_t>(entropy()) << 32) | entropy();
  char name[64];
  std::snprintf(name, sizeof(name), "/simnccl.%d.%u.%016llx", static_cast<int>(getpid()),
                counter.fetch_add(1), static_cast<unsigned long long>(random_bits));
  UniqueIdContents contents;
  contents.segment_name = name;
  contents.slot_bytes = ConfiguredSlotBytes();
  contents.mailbox_bytes = ConfiguredMailboxBytes();
  return contents;
}

void EncodeUniqueId(const UniqueIdContents& contents, ncclUniqueId* id) {
  std::memset(id->internal, 0, sizeof(id->internal));
  std::memcpy(id->internal + kMagicOffset, kMagic, sizeof(kMagic));
  std::memcpy(id->internal + kSlotBytesOffset, &contents.slot_bytes, sizeof(uint64_t));
  std::memcpy(id->internal + kMailboxBytesOffset, &contents.mailbox_bytes, sizeof(uint64_t));
  const size_t length = std::min(contents.segment_name.size(), kNameCapacity - 1);
  std::memcpy(id->internal + kNameOffset, contents.segment_name.data(), length);
}

bool DecodeUniqueId(const ncclUniqueId& id, UniqueIdContents* contents) {
  if (std::memcmp(id.internal + kMagicOffset, kMagic, sizeof(kMagic)) != 0) return false;
  std::memcpy(&contents->slot_bytes, id.internal + kSlotBytesOffset, sizeof(uint64_t));
  std::memcpy(&contents->mailbox_bytes, id.internal + kMailboxBytesOffset, sizeof(uint64_t));
  const char* name = id.internal + kNameOffset;
  contents->segment_name.assign(name, strnlen(name, kNameCapacity));
  return !contents->segment_name.empty() && contents->slot_bytes > 0 && contents->mailbox_bytes > 0;
}

uint64_t HashUniqueId(const ncclUniqueId& id) {
  // FNV-1a: simple, stable across processes and builds.
  uint64_t hash = 1469598103934665603ull;
  for (char byte : id.internal) {
    hash ^= static_cast<unsigned char>(byte);
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace simnccl
