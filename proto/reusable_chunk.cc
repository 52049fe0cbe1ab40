#include "proto/reusable_chunk.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/message.h"
#include "proto/chunk_block_reader.h"

namespace prof {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::RepeatedPtrField;

// The singular message fields of `message` that are set (a block, a sparse column).
std::vector<const FieldDescriptor*> SetMessageFields(const Message& message) {
  std::vector<const FieldDescriptor*> fields;
  message.GetReflection()->ListFields(message, &fields);
  fields.erase(std::remove_if(fields.begin(), fields.end(),
                              [](const FieldDescriptor* field) {
                                return field->is_repeated() ||
                                       field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE;
                              }),
               fields.end());
  return fields;
}

bool IsEmpty(const Message& message) {
  std::vector<const FieldDescriptor*> fields;
  message.GetReflection()->ListFields(message, &fields);
  return fields.empty() && message.GetReflection()->GetUnknownFields(message).empty();
}

// Clears `message` but keeps its set message fields, cleared the same way: a repeated
// scalar field's Clear() keeps its array, a message's Clear() deletes its message fields.
void ClearKeepingMessages(Message* message) {
  const Reflection& reflection = *message->GetReflection();
  std::vector<std::pair<const FieldDescriptor*, Message*>> kept;
  for (const FieldDescriptor* field : SetMessageFields(*message)) {
    Message* part = reflection.ReleaseMessage(message, field);
    ClearKeepingMessages(part);
    kept.emplace_back(field, part);
  }
  message->Clear();
  for (const auto& [field, part] : kept) reflection.SetAllocatedMessage(message, part, field);
}

// Removes the message fields the parse left empty: those kept from the last chunk that
// this chunk does not have (and, alike, any that came empty on the wire).
void RemoveEmptyMessages(Message* message) {
  const Reflection& reflection = *message->GetReflection();
  for (const FieldDescriptor* field : SetMessageFields(*message)) {
    Message* part = reflection.MutableMessage(message, field);
    RemoveEmptyMessages(part);
    if (IsEmpty(*part)) reflection.ClearField(message, field);
  }
}

// Every element of `field`, the cleared ones last, taken out of it and cleared keeping
// their messages.
template <typename T>
std::vector<T*> TakeKeepingMessages(RepeatedPtrField<T>* field) {
  std::vector<T*> cleared;
  while (field->ClearedCount() > 0) cleared.push_back(field->ReleaseCleared());
  std::vector<T*> taken(field->size());
  for (int i = field->size() - 1; i >= 0; --i) taken[i] = field->ReleaseLast();
  taken.insert(taken.end(), cleared.begin(), cleared.end());
  for (T* element : taken) ClearKeepingMessages(element);
  return taken;
}

// Gives `elements` back to the emptied `field` as cleared elements, in order: the parse
// fills a cleared element before it allocates one (RepeatedPtrField::Add).
template <typename T>
void ReturnCleared(const std::vector<T*>& elements, RepeatedPtrField<T>* field) {
  for (T* element : elements) field->AddCleared(element);
}

// Clears `chunk` keeping its threads' and streams' blocks and their arrays, for the parse.
void ClearKeepingCapacity(trace::Chunk* chunk) {
  const std::vector<trace::ThreadEvents*> threads = TakeKeepingMessages(chunk->mutable_threads());
  const std::vector<trace::StreamEvents*> streams = TakeKeepingMessages(chunk->mutable_streams());
  chunk->Clear();  // the rest of the chunk: small
  ReturnCleared(threads, chunk->mutable_threads());
  ReturnCleared(streams, chunk->mutable_streams());
}

}  // namespace

bool ParseChunkKeepingCapacity(const uint8_t* payload, int size, uint64_t keep_at_most,
                               trace::Chunk* chunk) {
  // Cleared elements cannot be handed to a field on an arena.
  if (chunk->GetArena() != nullptr) return chunk->ParseFromArray(payload, size);
  // SpaceUsedLong counts the spare elements too; the swap frees them, Clear() would not.
  if (chunk->SpaceUsedLong() > keep_at_most) trace::Chunk().Swap(chunk);
  ClearKeepingCapacity(chunk);
  // Merges, which keep what is in `chunk`, where ParseFromArray would clear it. Our own
  // reader first; what it does not read (or finds malformed) libprotobuf decides, afresh.
  if (size < 0 || !MergeChunkReadingBlocks(payload, static_cast<size_t>(size), chunk)) {
    ClearKeepingCapacity(chunk);
    google::protobuf::io::ArrayInputStream input(payload, size);
    if (!chunk->MergeFromBoundedZeroCopyStream(&input, size)) return false;
  }
  for (trace::ThreadEvents& thread : *chunk->mutable_threads()) RemoveEmptyMessages(&thread);
  for (trace::StreamEvents& stream : *chunk->mutable_streams()) RemoveEmptyMessages(&stream);
  return true;
}

}  // namespace prof
