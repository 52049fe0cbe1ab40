"""A repository rule exposing the CUDA toolkit's headers (CUDA runtime, CUPTI, NCCL, NVTX).

The toolkit is found at $CUDA_HOME, else /usr/local/cuda. Only headers are used at build
time: the agent loads libcudart, libcupti and libnccl at run time, and the tests link
against the simulated platform in testdata/, so nothing here needs a GPU or a driver.
Target: @cuda//:headers.
"""

def _cuda_toolkit_impl(repository_ctx):
    cuda_home = repository_ctx.os.environ.get("CUDA_HOME", "/usr/local/cuda")
    include = repository_ctx.path(cuda_home + "/include")
    if not include.exists or not repository_ctx.path(cuda_home + "/include/cupti.h").exists:
        fail("CUDA toolkit headers not found under {} (set CUDA_HOME to the toolkit, e.g. /usr/local/cuda)".format(cuda_home))
    repository_ctx.symlink(include, "include")
    repository_ctx.file("WORKSPACE", 'workspace(name = "{}")\n'.format(repository_ctx.name))
    repository_ctx.file("BUILD.bazel", """
package(default_visibility = ["//visibility:public"])

# Headers only: the product never links the CUDA libraries at build time.
cc_library(
    name = "headers",
    hdrs = glob(
        [
            "include/*.h",
            "include/*.hpp",
            "include/nvtx3/**",
            "include/cccl/nv/**",
            "include/crt/*.h",
            "include/crt/*.hpp",
        ],
        allow_empty = False,
    ),
    includes = [
        "include",
        "include/cccl",  # <nv/target>, used by cuda_fp16.h (through nccl.h)
    ],
)
""")

cuda_toolkit = repository_rule(
    implementation = _cuda_toolkit_impl,
    environ = ["CUDA_HOME"],
    local = True,
)
