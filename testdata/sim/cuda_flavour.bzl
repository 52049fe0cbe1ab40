"""The CUDA 12 flavour of a program: the same target built with --//testdata/sim:cuda=12.

Everything the program links from the simulated platform (//testdata/sim:cudart, :cupti, and
what links them: NCCL, the cuBLAS and Kineto stand-ins) is then the CUDA 12 flavour:
libcudart.so.12 with its versioned symbols, libcupti.so.12 with 12's record layouts. One
definition of each program serves both flavours; nothing is duplicated by hand.
"""

_FLAG = "//testdata/sim:cuda"

def _to_cuda12_impl(settings, attr):
    return {_FLAG: "12"}

_to_cuda12 = transition(
    implementation = _to_cuda12_impl,
    inputs = [],
    outputs = [_FLAG],
)

def _cuda12_binary_impl(ctx):
    binary = ctx.attr.binary[0]
    real = binary[DefaultInfo].files_to_run.executable
    # A symlink, never a copy: the program's RUNPATH ($ORIGIN/...) must resolve from where
    # the real file lies, next to the CUDA 12 flavour's _solib folder.
    executable = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = executable, target_file = real, is_executable = True)
    runfiles = ctx.runfiles(files = [executable, real] + ctx.files.data)
    runfiles = runfiles.merge(binary[DefaultInfo].default_runfiles)
    for extra in ctx.attr.data:
        runfiles = runfiles.merge(extra[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = executable, files = depset([executable]), runfiles = runfiles)]

_ATTRS = {
    "binary": attr.label(cfg = _to_cuda12, executable = True, mandatory = True),
    "data": attr.label_list(cfg = _to_cuda12, allow_files = True),
    "_allowlist_function_transition": attr.label(
        default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
    ),
}

cuda12_binary = rule(
    implementation = _cuda12_binary_impl,
    doc = "`binary` built against the CUDA 12 flavour, runnable as :name; `data` too " +
          "(e.g. //testdata/sim:libcupti.so.12, which then lies beside the program's runtime).",
    executable = True,
    attrs = _ATTRS,
)

def _cuda12_test_impl(ctx):
    return _cuda12_binary_impl(ctx) + [testing.TestEnvironment({"PROF_TEST_CUDA": "12"})]

cuda12_test = rule(
    implementation = _cuda12_test_impl,
    doc = "The test `binary` (a cc_test that links the simulated platform itself) built " +
          "against the CUDA 12 flavour and run with PROF_TEST_CUDA=12; `data` as cuda12_binary's.",
    test = True,
    attrs = _ATTRS,
)
