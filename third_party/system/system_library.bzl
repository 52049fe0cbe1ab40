"""A repository rule wrapping a library installed by a Debian -dev package.

Headers live in /usr/include (already on the compiler's search path); the rule asks
pkg-config for the link flags, so a library upgrade that renames or adds a shared
object does not break the build. The result is one target, @NAME//:NAME, and
@NAME//:defs.bzl with STATIC_LINKOPTS: the same libraries from their static archives
(pkg-config --static), between -Wl,-Bstatic and -Wl,-Bdynamic, for a program that must not
need them at run time (//release:profanalyze); glibc's own libraries stay shared. With
include_paths = True, the -I folders pkg-config names (Open MPI keeps its headers under
/usr/lib/<arch>/openmpi/include) are linked into the repository and added as includes.
"""

# Part of glibc (or the compiler's runtime, linked as the toolchain decides): never
# taken from a static archive by STATIC_LINKOPTS.
_SHARED_ALWAYS = ["c", "m", "dl", "pthread", "rt", "atomic"]

def _system_library_impl(repository_ctx):
    modules = repository_ctx.attr.pkg_config_modules
    result = repository_ctx.execute(["pkg-config", "--libs"] + modules)
    if result.return_code != 0:
        fail("pkg-config could not find {}: {} (run ./scripts/setup.sh)".format(
            " ".join(modules),
            result.stderr.strip(),
        ))
    linkopts = [flag for flag in result.stdout.strip().split(" ") if flag]
    includes = []
    if repository_ctx.attr.include_paths:
        cflags = repository_ctx.execute(["pkg-config", "--cflags"] + modules).stdout.strip().split(" ")
        for flag in cflags:
            if flag.startswith("-I"):
                folder = "include_{}".format(len(includes))
                repository_ctx.symlink(flag[2:], folder)
                includes.append(folder)
    static = repository_ctx.execute(["pkg-config", "--static", "--libs-only-l"] + modules)
    if static.return_code != 0:
        fail("pkg-config --static could not find {}: {}".format(" ".join(modules), static.stderr))
    archives = [
        flag
        for flag in static.stdout.strip().split(" ")
        if flag.startswith("-l") and flag[2:] not in _SHARED_ALWAYS
    ]
    repository_ctx.file("defs.bzl", "STATIC_LINKOPTS = {}\n".format(
        repr(["-Wl,-Bstatic"] + archives + ["-Wl,-Bdynamic"]),
    ))
    repository_ctx.file("WORKSPACE", 'workspace(name = "{}")\n'.format(repository_ctx.name))
    repository_ctx.file("BUILD.bazel", """
package(default_visibility = ["//visibility:public"])

cc_library(
    name = "{name}",
    hdrs = glob([folder + "/**/*.h" for folder in {includes}]),
    includes = {includes},
    linkopts = {linkopts},
)
""".format(name = repository_ctx.name, linkopts = repr(linkopts), includes = repr(includes)))

system_library = repository_rule(
    implementation = _system_library_impl,
    attrs = {
        "pkg_config_modules": attr.string_list(mandatory = True),
        "include_paths": attr.bool(default = False),
    },
    local = True,
)
