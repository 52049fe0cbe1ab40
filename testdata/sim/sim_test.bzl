"""A cc_test linked against the simulated CUDA platform (runtime, and CUPTI on request)."""

def sim_cc_test(name, srcs = None, deps = [], with_cupti = False, size = "small", **kwargs):
    """One Catch2 test binary `name` built from `name`.cc (unless srcs says otherwise)."""
    native.cc_test(
        name = name,
        srcs = srcs if srcs != None else [name + ".cc", "sim_test_util.h"],
        deps = deps + [
            "//testdata/sim:cudart",
            "//third_party/catch2:catch2_main",
        ] + (["//testdata/sim:cupti"] if with_cupti else []),
        size = size,
        **kwargs
    )
