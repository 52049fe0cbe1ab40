"""Forward is one phase per training step, from the first outermost module call (the
model) to the last one before Backward (the loss module); under torch.no_grad() each
outermost call is a Forward of its own (evaluation: no backward follows)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

TRAIN_THEN_EVALUATE = """
import torch
model = torch.nn.Linear(4, 2)
loss_function = torch.nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs, targets = torch.randn(8, 4), torch.randn(8, 2)
for _ in range(3):
    optimizer.zero_grad()
    loss = loss_function(model(inputs), targets)
    loss.backward()
    optimizer.step()
with torch.no_grad():
    for _ in range(4):
        model(inputs)
print("done")
"""


class ForwardPhaseTest(unittest.TestCase):
    def test_one_forward_per_training_step_one_per_evaluation_call(self):
        agent_runner.require_torch(self)
        run = agent_runner.run_python(["-c", TRAIN_THEN_EVALUATE])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.helper_failures(), [])
        facts = agent_runner.trace_facts(run.output_dir)
        self.assertEqual(agent_runner.phase_counts(facts), {
            "Dataloader": 0, "Forward": 3 + 4, "Backward": 3, "Optimization": 3})


if __name__ == "__main__":
    unittest.main()
