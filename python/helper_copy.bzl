"""helper_copy: the package's sources, copied under the calling package's folder.

A rule rather than a genrule because a genrule must name its outputs when the BUILD file
is loaded, and those are python/src's files, another package's glob: here each output is
declared from its source (src/libprof/x.py -> <package>/libprof/x.py), so adding a module
to python/src needs no edit anywhere else."""

def _helper_copy_impl(ctx):
    prefix = ctx.attr.strip_prefix
    copies = []
    for source in ctx.files.srcs:
        if not source.short_path.startswith(prefix):
            fail("%s is not under %s" % (source.short_path, prefix))
        copy = ctx.actions.declare_file(source.short_path[len(prefix):])
        ctx.actions.expand_template(template = source, output = copy, substitutions = {})
        copies.append(copy)

    # Beside each copy, its bytecode for the build's interpreter (compile_bytecode.py says
    # why); none when that interpreter is unknown (no python3-dev: python_headers.bzl).
    bytecode = []
    if ctx.attr.python_version != "unknown":
        cache_tag = "cpython-" + ctx.attr.python_version.replace(".", "")
        for copy in copies:
            folder = copy.short_path[len(ctx.label.package) + 1:].rpartition("/")[0]
            name = copy.basename[:-len(".py")]
            path = (folder + "/" if folder else "") + "__pycache__/%s.%s.pyc" % (name, cache_tag)
            bytecode.append(ctx.actions.declare_file(path))
        ctx.actions.run(
            executable = ctx.attr.python,
            arguments = [ctx.file._compile.path, cache_tag] + [copy.path for copy in copies],
            inputs = copies + [ctx.file._compile],
            outputs = bytecode,
            mnemonic = "CompileHelperBytecode",
            progress_message = "Compiling the Python helper's bytecode",
        )
    files = depset(copies + bytecode)
    return [DefaultInfo(files = files, runfiles = ctx.runfiles(transitive_files = files))]

helper_copy = rule(
    implementation = _helper_copy_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = [".py"]),
        "strip_prefix": attr.string(default = "python/src/"),
        "python": attr.string(mandatory = True),
        "python_version": attr.string(mandatory = True),
        "_compile": attr.label(
            default = "//python:compile_bytecode.py",
            allow_single_file = True,
        ),
    },
)
