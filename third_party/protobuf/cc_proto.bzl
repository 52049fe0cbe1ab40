"""C++ code from .proto files with Debian's /usr/bin/protoc, linked to Debian's libprotobuf.

Bazel's native cc_proto_library needs the @com_google_protobuf repository, which would be
downloaded; a genrule calling the system protoc needs nothing.
"""

def cc_proto(name, src, deps = [], visibility = None):
    """Generates NAME, a cc_library with the C++ classes of one .proto file in this package."""
    base = src[:-len(".proto")]
    package = native.package_name()
    generated = [base + ".pb.h", base + ".pb.cc"]
    native.genrule(
        name = name + "_generate",
        srcs = [src],
        outs = generated,
        cmd = "/usr/bin/protoc --proto_path=. --cpp_out=$(GENDIR) {}/{}".format(package, src),
    )
    native.cc_library(
        name = name,
        srcs = [base + ".pb.cc"],
        hdrs = [base + ".pb.h"],
        deps = deps + ["@protobuf"],
        visibility = visibility,
    )
