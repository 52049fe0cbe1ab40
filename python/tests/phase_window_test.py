"""What a window that opens or closes in the middle of a phase holds of it (Backward and
Optimization are a push and a pop; Forward one whole range as it ends), here from
the program's own prof_start/prof_stop inside a backward pass, with PROF_FLIGHT=1 so the
phase wrappers stay in while no window records (the phases of quiet steps are not
recorded at all, docs/pytorch.md)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

# Six iterations; the loss's gradient hook (run inside Backward) of iteration STOP_AT
# closes the window (prof_stop), that of iteration START_AT opens one (prof_start).
MID_BACKWARD = """
import ctypes, sys
import torch
agent = ctypes.CDLL(None)
STOP_AT, START_AT = int(sys.argv[1]), int(sys.argv[2])
model = torch.nn.Linear(4, 2)
loss_function = torch.nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs, targets = torch.randn(8, 4), torch.randn(8, 2)
def calling(action):
    def hook(gradient):
        action()
        return gradient
    return hook
for iteration in range(6):
    optimizer.zero_grad()
    loss = loss_function(model(inputs), targets)
    if iteration == STOP_AT:
        loss.register_hook(calling(agent.prof_stop))
    if iteration == START_AT:
        loss.register_hook(calling(agent.prof_start))
    loss.backward()
    optimizer.step()
print("done")
"""


def phases_recorded(test_case, stop_at, start_at, schedule=None):
    environment = {"PROF_FLIGHT": "1", "PROF_PYTHON_OPS": "0"}
    if schedule:
        environment["PROF_SCHEDULE"] = schedule
    run = agent_runner.run_python(["-c", MID_BACKWARD, str(stop_at), str(start_at)],
                                  environment=environment)
    test_case.assertEqual(run.returncode, 0, run.stderr)
    test_case.assertEqual(run.helper_failures(), [])
    windows = [name for name in os.listdir(run.output_dir) if "window_" in name]
    test_case.assertEqual(len(windows), 1, windows)
    return agent_runner.phase_counts(agent_runner.trace_facts(run.output_dir))


class PhaseWindowTest(unittest.TestCase):
    def test_a_window_that_opens_mid_phase_leaves_that_phase_out(self):
        agent_runner.require_torch(self)
        # No window until iteration 3's Backward opens one: that Backward's push came
        # before the window, so neither it nor its pop is recorded; iteration 3's
        # Optimization and iterations 4-5 are in the window.
        self.assertEqual(phases_recorded(self, 99, 3, schedule="off"), {
            "Dataloader": 0, "Forward": 2, "Backward": 2, "Optimization": 3})

    def test_a_window_that_closes_mid_phase_keeps_that_phase_begun(self):
        agent_runner.require_torch(self)
        # The window (no schedule: from the start) closes inside iteration 1's Backward:
        # its push is in the window (the analyzer ends it with the window), its pop is
        # not. (Recording a phase as one whole range as it closes, as Forward is, would
        # lose it: Backward 1.)
        self.assertEqual(phases_recorded(self, 1, 99), {
            "Dataloader": 0, "Forward": 2, "Backward": 2, "Optimization": 1})


if __name__ == "__main__":
    unittest.main()
