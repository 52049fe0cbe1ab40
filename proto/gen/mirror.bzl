"""The plain C++ mirrors of a .proto, generated at build time (mirror_generator.h)."""

def descriptor_set(name, src, testonly = False):
    """NAME.desc: protoc's FileDescriptorSet of SRC, with imports and comments."""
    native.genrule(
        name = name,
        srcs = [src],
        outs = [name + ".desc"],
        testonly = testonly,
        cmd = ("/usr/bin/protoc --proto_path=. --include_imports --include_source_info " +
               "--descriptor_set_out=$@ $(location {})").format(src),
    )

def schema_mirrors(name, src, fields, enums, columns, visibility = None, testonly = False):
    """Generates the FIELDS, ENUMS and COLUMNS headers of SRC (a .proto in this package).

    They are plain C++ (no libprotobuf), included as "<package>/<header>"; NAME is a
    cc_library holding them.
    """
    descriptor_set(name = name + "_descriptor_set", src = src, testonly = testonly)
    package = native.package_name()
    native.genrule(
        name = name + "_generate",
        srcs = [":" + name + "_descriptor_set"],
        outs = [fields, enums, columns],
        testonly = testonly,
        tools = ["//proto/gen:mirror_gen"],
        cmd = "$(execpath //proto/gen:mirror_gen) $(location :{set}) {package}/{src} {package} $(RULEDIR) {fields} {enums} {columns}".format(
            set = name + "_descriptor_set",
            package = package,
            src = src,
            fields = fields,
            enums = enums,
            columns = columns,
        ),
    )
    native.cc_library(
        name = name,
        hdrs = [fields, enums, columns],
        testonly = testonly,
        visibility = visibility,
    )
