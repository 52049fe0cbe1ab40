"""_capi.operator_push_detail as the ATen recorder calls it with PROF_SHAPES=1: three
steps, each an aten::mm with shapes, dtypes and source, and an aten::relu without."""
from libprof import _capi

for _ in range(3):
    _capi.operator_push_detail("aten::mm", "[[4, 8], [8, 2]]", "[float, float]",
                               "operator_detail.py:7")
    _capi.operator_pop()
    _capi.operator_push_detail("aten::relu", None, None, None)
    _capi.operator_pop()
    _capi.step(1)
print("operator_detail: done")
