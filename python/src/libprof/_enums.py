"""paddle.profiler's enums, with paddle's values. ProfilerState's values are also the
agent's step states (prof_step_to, prof_set_state in prof.h)."""
from enum import Enum


class ProfilerTarget(Enum):
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


class ProfilerState(Enum):
    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3  # the last step of a window: its data is returned after it


# The states whose steps a window records.
RECORDING_STATES = (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)


class SortedKeys(Enum):
    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class SummaryView(Enum):
    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


# SummaryView -> the analyzer's view name (profanalyze --views).
VIEW_NAMES = {
    SummaryView.DeviceView: "device",
    SummaryView.OverView: "overview",
    SummaryView.ModelView: "model",
    SummaryView.DistributedView: "distributed",
    SummaryView.KernelView: "kernel",
    SummaryView.OperatorView: "operator",
    SummaryView.MemoryView: "memory",
    SummaryView.MemoryManipulationView: "memory_manipulation",
    SummaryView.UDFView: "userdefined",
}
