"""A repository rule exposing the CUDA toolkit's headers (CUDA runtime, CUPTI, NCCL, NVTX).

The toolkit is found at $CUDA_HOME, else /usr/local/cuda. Only headers are used at build
time: the agent loads libcudart, libcupti and libnccl at run time, and the tests link
against the simulated platform in testdata/, so nothing here needs a GPU or a driver.
Targets: @cuda//:headers; @cuda//:real_cudart, the toolkit's own libcudart.so.13 for the
test that runs the agent on the real libraries (without that file: headers only, and
PROF_NO_REAL_CUDART defined, so that test can say it skipped).
"""

_REAL_CUDART = """
# The toolkit's real runtime, linked dynamically (test programs only).
cc_import(
    name = "real_cudart_shared",
    shared_library = "lib64/libcudart.so.13",
)

cc_library(
    name = "real_cudart",
    deps = [
        ":headers",
        ":real_cudart_shared",
    ],
)
"""

_NO_REAL_CUDART = """
# {} has no lib64/libcudart.so.13: headers only.
cc_library(
    name = "real_cudart",
    defines = ["PROF_NO_REAL_CUDART"],
    deps = [":headers"],
)
"""

def _cuda_toolkit_impl(repository_ctx):
    cuda_home = repository_ctx.os.environ.get("CUDA_HOME", "/usr/local/cuda")
    include = repository_ctx.path(cuda_home + "/include")
    if not include.exists or not repository_ctx.path(cuda_home + "/include/cupti.h").exists:
        fail("CUDA toolkit headers not found under {} (set CUDA_HOME to the toolkit, e.g. /usr/local/cuda)".format(cuda_home))
    repository_ctx.symlink(include, "include")
    repository_ctx.file("WORKSPACE", 'workspace(name = "{}")\n'.format(repository_ctx.name))
    cudart = repository_ctx.path(cuda_home + "/lib64/libcudart.so.13")
    if cudart.exists:
        repository_ctx.symlink(cudart, "lib64/libcudart.so.13")
        real_cudart = _REAL_CUDART
    else:
        real_cudart = _NO_REAL_CUDART.format(cuda_home)
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
""" + real_cudart)

cuda_toolkit = repository_rule(
    implementation = _cuda_toolkit_impl,
    environ = ["CUDA_HOME"],
    local = True,
)
