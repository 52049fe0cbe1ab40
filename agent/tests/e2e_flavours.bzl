"""Tests that run against both flavours of the simulated CUDA platform."""

load("//testdata/sim:cuda_flavour.bzl", "cuda12_test")

_CUPTI13 = "//testdata/sim:libcupti.so.13"
_CUPTI12 = "//testdata/sim:libcupti.so.12"

def cuda12_twin(program):
    """The cuda12_binary of `program` ("//pkg:name" -> "//pkg:cuda12/name"), which its own
    package declares (testdata/sim/cuda_flavour.bzl)."""
    package, _, name = program.rpartition(":")
    return package + ":cuda12/" + name

def _twin_args(args, programs):
    """`args` with each $(location) of a program or of libcupti.so.13 naming its CUDA 12 twin."""
    twinned = []
    for arg in args:
        for program in programs:
            arg = arg.replace(" %s)" % program, " %s)" % cuda12_twin(program))
        twinned.append(arg.replace(" %s)" % _CUPTI13, " %s)" % _CUPTI12))
    return twinned

def e2e_test_both_flavours(
        name,
        programs = None,
        data = [],
        tags = [],
        args = [],
        test_rule = None,
        **kwargs):
    """`name` against CUDA 13 (the default) and `name`_cuda12 against CUDA 12.

    `programs` are the simulated-CUDA programs (and libraries) the test runs; each has a
    cuda12/ twin in its package. `data` is the rest, the same in both flavours. The _cuda12
    test sets PROF_TEST_CUDA=12: under_agent.h's Program() then runs the cuda12/ build of
    each program (cuda12_binary: libcudart.so.12 with versioned symbols) and FlavourCupti()
    names libcupti.so.12 (CUDA 12.6's record layouts), which lies beside it.

    Without `programs` the test is itself the program (it links //testdata/sim:cudart): its
    twin is the same test built for CUDA 12 (cuda12_test), libcupti.so.12 in its runfiles
    (agent/cupti's SimCuptiPath() names it under PROF_TEST_CUDA=12).

    `test_rule`: cc_test by default; with `programs`, sh_test too. The twin's `args` name
    the CUDA 12 twin wherever `args` give $(location) of a program or of libcupti.so.13.

    The twin is tagged cuda12: .bazelrc leaves it out of the sanitizer runs, where the CUDA
    13 test already covers the same agent code.
    """
    test_rule = test_rule or native.cc_test
    if programs == None:
        native.cc_test(name = name, data = data + [_CUPTI13], tags = tags, **kwargs)
        cuda12_test(
            name = name + "_cuda12",
            binary = ":" + name,
            data = data + [_CUPTI12],
            size = kwargs.get("size"),
            tags = tags + ["cuda12"],
        )
        return
    test_rule(name = name, data = data + programs + [_CUPTI13], tags = tags, args = args, **kwargs)
    test_rule(
        name = name + "_cuda12",
        data = data + [cuda12_twin(program) for program in programs] + [_CUPTI12],
        args = _twin_args(args, programs),
        env = {"PROF_TEST_CUDA": "12"},
        tags = tags + ["cuda12"],
        **kwargs
    )
