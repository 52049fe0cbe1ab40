// mirror_gen: writes the plain C++ mirrors of one .proto (mirror_generator.h).
//
//   mirror_gen SET PROTO INCLUDE_DIR OUT_DIR FIELDS_H ENUMS_H COLUMNS_H
//
// SET is `protoc --include_imports --include_source_info --descriptor_set_out` of PROTO
// ("proto/trace.proto"); each header is written to OUT_DIR/NAME and included as
// INCLUDE_DIR/NAME. A .proto it cannot mirror: one line on stderr, exit status 1.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "proto/gen/mirror_generator.h"

namespace {

bool Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out.flush());
}

int Fail(const std::string& line) {
  std::cerr << "mirror_gen: " << line << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  namespace gen = prof::mirror_gen;
  if (argc != 8) {
    return Fail("usage: mirror_gen SET PROTO INCLUDE_DIR OUT_DIR FIELDS_H ENUMS_H COLUMNS_H");
  }
  const std::string proto = argv[2], include_dir = argv[3], out_dir = argv[4];
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream set;
  set << in.rdbuf();
  if (!in) return Fail(std::string(argv[1]) + ": cannot be read");

  google::protobuf::DescriptorPool pool;
  std::string error;
  const google::protobuf::FileDescriptor* file = gen::LoadFile(set.str(), proto, &pool, &error);
  if (file == nullptr) return Fail(error);
  error = gen::CheckMirrorable(*file);
  if (!error.empty()) return Fail(error);

  const std::string fields = include_dir + "/" + argv[5];
  const std::string enums = include_dir + "/" + argv[6];
  const std::string columns = include_dir + "/" + argv[7];
  const bool written = Write(out_dir + "/" + argv[5], gen::FieldsHeader(*file, fields)) &&
                       Write(out_dir + "/" + argv[6], gen::EnumsHeader(*file, enums)) &&
                       Write(out_dir + "/" + argv[7], gen::ColumnsHeader(*file, columns, fields));
  return written ? 0 : Fail(out_dir + ": the headers cannot be written");
}
