"""Quiet steps (issue 24, the helper's CLOSED cost): in a step that no window records, the
PyTorch hooks only place the step boundary; they make no phase calls into the agent. The
steps around them still record their phases and operators in full."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

# Counts the helper's calls into the agent (the _capi functions the hooks look up at each
# call; _schedule_state is the ctypes function behind applied_schedule_state) over
# ITERATIONS iterations of a loop with two outermost modules (model, loss), a backward and
# an optimizer step. A name the agent lacks counts 0.
COUNT_AGENT_CALLS = """
import json, sys
import torch
from libprof import _capi
if sys.argv[3] == "without_step_ended":  # an agent built before prof_step_ended
    _capi.step_ended = None
counted = ("step", "step_ended", "phase_push", "phase_pop", "phase_range", "recording",
           "_schedule_state")
calls = dict.fromkeys(counted, 0)
def counting(name, function):
    def call(*arguments):
        calls[name] += 1
        return function(*arguments)
    return call
for name in counted:
    if getattr(_capi, name, None) is not None:
        setattr(_capi, name, counting(name, getattr(_capi, name)))
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
loss_function = torch.nn.MSELoss()
parameters = list(model.parameters())
# argv[2] == "2": two optimizers stepping one after the other (one iteration, one step)
optimizers = ([torch.optim.SGD(parameters[:2], lr=0.1), torch.optim.Adam(parameters[2:])]
              if sys.argv[2] == "2" else [torch.optim.SGD(parameters, lr=0.1)])
inputs, targets = torch.randn(8, 4), torch.randn(8, 2)
for _ in range(int(sys.argv[1])):
    for optimizer in optimizers:
        optimizer.zero_grad()
    loss_function(model(inputs), targets).backward()
    for optimizer in optimizers:
        optimizer.step()
print(json.dumps(calls))
"""
ITERATIONS = 10

# The pre-hook that finds the next module call, without the agent, once with torch's
# RemovableHandle and once with a handle that lacks hooks_dict_ref and id: it fires at the
# next module call only, then is gone.
NEXT_MODULE_CALL = """
import sys
import torch
from libprof._torch import forward
from libprof import _steps
placed = []
_steps.boundaries.place_due_boundary = lambda: placed.append(1)
if sys.argv[1] == "bare":
    register = torch.nn.modules.module.register_module_forward_pre_hook
    class Bare:
        def __init__(self, handle):
            self.remove = handle.remove
    torch.nn.modules.module.register_module_forward_pre_hook = lambda hook: Bare(register(hook))
hook = forward._NextModuleCall(torch)
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
model(torch.ones(1, 2))
hook.arm()
hook.arm()
model(torch.ones(1, 2))
model(torch.ones(1, 2))
print(len(placed), len(torch.nn.modules.module._global_forward_pre_hooks))
"""


def closed_run_calls(test_case, optimizers, agent="with_step_ended"):
    run = agent_runner.run_python(
        ["-c", COUNT_AGENT_CALLS, str(ITERATIONS), str(optimizers), agent],
        environment={"PROF_SCHEDULE": "skip_first=1000000,record=1", "PROF_PYTHON_OPS": "0"})
    test_case.assertEqual(run.returncode, 0, run.stderr)
    test_case.assertEqual(run.helper_failures(), [])
    return json.loads(run.stdout.splitlines()[-1])


def boundaries(calls):
    return calls["step"] + calls["step_ended"]


class QuietStepsTest(unittest.TestCase):
    def test_closed_steps_make_no_phase_calls(self):
        agent_runner.require_torch(self)
        calls = closed_run_calls(self, 1)
        # Boundaries: one at the start of each iteration after the first (9); the one due
        # after the last optimizer step is placed at exit, after the counts are printed.
        self.assertEqual(boundaries(calls), ITERATIONS - 1)
        # Only step 0 (before any boundary: not known to be quiet) records its phases:
        # Backward and Optimization pushed and popped, Forward one whole range. Without
        # quiet steps each iteration made as many (20, 20, 10).
        self.assertEqual((calls["phase_push"], calls["phase_pop"], calls["phase_range"]),
                         (2, 2, 1))

    def test_a_quiet_boundary_is_one_call_into_the_agent(self):
        # prof_step_ended ends the step and says whether the new step records and whether
        # the one after it will: no prof_recording after it, no prof_schedule_state at
        # the optimizer step (before it, 3 calls a boundary: 27).
        agent_runner.require_torch(self)
        calls = closed_run_calls(self, 1)
        self.assertEqual((calls["step_ended"], calls["step"], calls["recording"],
                          calls["_schedule_state"]), (ITERATIONS - 1, 0, 0, 0))

    def test_without_step_ended_the_three_calls_as_before(self):
        agent_runner.require_torch(self)
        calls = closed_run_calls(self, 1, "without_step_ended")
        self.assertEqual((calls["step_ended"], calls["step"], calls["recording"],
                          calls["_schedule_state"]), (0,) + (ITERATIONS - 1,) * 3)
        self.assertEqual((calls["phase_push"], calls["phase_pop"], calls["phase_range"]),
                         (2, 2, 1))  # still quiet

    def test_two_optimizers_count_steps_as_recorded_steps_do(self):
        # Without a DataLoader each outermost optimizer step ends a step, placed at the next
        # phase (the second optimizer's Optimization, then the next iteration's Forward),
        # quiet or not (docs/pytorch.md, Steps): 2 a iteration, the last one due at exit.
        agent_runner.require_torch(self)
        self.assertEqual(boundaries(closed_run_calls(self, 2)), 2 * ITERATIONS - 1)

    def test_next_module_call_hook_fires_once(self):
        agent_runner.require_torch(self)
        for handle in ("torch", "bare"):
            run = agent_runner.run_python(["-c", NEXT_MODULE_CALL, handle], agent=False,
                                          environment={"PYTHONPATH": agent_runner.helper_folder()})
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertEqual(run.stdout.split(), ["1", "0"], handle)

    def test_steps_recorded_after_quiet_ones_have_every_phase(self):
        agent_runner.require_torch(self)
        # Steps 0-3 closed (1-3 quiet), 4 and 5 recorded, 6 and 7 quiet again.
        run = agent_runner.run_python([agent_runner.program("train.py"), "8", "8"],
                                      environment={"PROF_SCHEDULE": "4:6"})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.helper_failures(), [])
        facts = agent_runner.trace_facts(run.output_dir)
        self.assertEqual(facts["steps"], [4, 5])
        self.assertEqual(facts["samples"], [8, 8])
        self.assertEqual(agent_runner.phase_counts(facts), {
            "Dataloader": 2, "Forward": 2, "Backward": 2, "Optimization": 2})


if __name__ == "__main__":
    unittest.main()
