"""@libprof_version//:defs.bzl: VERSION, the release number from the top-level VERSION file
(the one place it is set; scripts/package.sh reads the same file). BUILD files cannot read
a file, so this repository rule does, and Bazel fetches it again when VERSION changes (the
file is read through its label)."""

def _version_repository_impl(repository_ctx):
    version = repository_ctx.read(repository_ctx.path(repository_ctx.attr.version_file)).strip()
    if not version or " " in version or "\n" in version:
        fail("%s must hold one version, like 0.1; it holds %r" % (repository_ctx.attr.version_file, version))
    repository_ctx.file("WORKSPACE", 'workspace(name = "{}")\n'.format(repository_ctx.name))
    repository_ctx.file("BUILD.bazel", "")
    repository_ctx.file("defs.bzl", "# Written by //release:version_repository.bzl from {}.\nVERSION = {}\n".format(
        repository_ctx.attr.version_file,
        repr(version),
    ))

version_repository = repository_rule(
    implementation = _version_repository_impl,
    attrs = {"version_file": attr.label(allow_single_file = True, mandatory = True)},
)
