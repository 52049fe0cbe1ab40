"""A torch.profiler result counted two ways, for tests that hold the agent's operators
against torch's: the helper's replay of it (aten_replay: torch's folding rule on the event
tree's nanoseconds, the agent's calls faked) and every event of its tree, nothing folded.

    replayed_counts(torch, profiler, HELPER_FOLDER) -> {"replay": {name: calls},
                                                        "tree": {name: calls}}
"""
import collections
import ctypes
import sys


def replayed_counts(torch, profiler, helper_folder):
    sys.path.insert(0, helper_folder)
    from libprof import _capi  # pylint: disable=import-outside-toplevel
    from libprof._torch import aten_replay  # pylint: disable=import-outside-toplevel
    result = profiler.profiler.kineto_results
    replayed = collections.Counter()
    _capi.recording = lambda: 1
    _capi.operator_ranges = lambda names, starts, ends: replayed.update(  # text addresses
        ctypes.string_at(name).decode() for name in names)
    _capi.user_range = lambda name, start, end: replayed.update([name.decode()])
    aten_replay.Replay(torch._C._profiler._EventType, with_details=False,
                       user_scope=torch._C._profiler.RecordScope.USER_SCOPE).replay(result)
    tree = collections.Counter()
    pending = list(result.experimental_event_tree())
    while pending:
        node = pending.pop()
        pending.extend(node.children)
        if node.name not in aten_replay._NOT_OPERATORS:  # pylint: disable=protected-access
            tree[node.name] += 1
    return {"replay": replayed, "tree": tree}
