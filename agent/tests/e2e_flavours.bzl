"""End-to-end tests that run against both flavours of the simulated CUDA platform."""

def e2e_test_both_flavours(name, data, cuda12_data, **kwargs):
    """`name` against CUDA 13 (the default) and `name`_cuda12 against CUDA 12.

    The _cuda12 test sets PROF_TEST_CUDA=12: under_agent.h's Program() then runs the
    cuda12/ build of each program (cuda12_binary: libcudart.so.12 with versioned symbols)
    and PROF_CUPTI_LIB names libcupti.so.12 (CUDA 12.6's record layouts). `cuda12_data`
    lists those builds in place of the CUDA 13 programs of `data`.
    """
    native.cc_test(name = name, data = data, **kwargs)
    native.cc_test(
        name = name + "_cuda12",
        data = cuda12_data,
        env = {"PROF_TEST_CUDA": "12"},
        **kwargs
    )
