"""PROF_PYTHON_OPS=1: PyTorch's ATen operators, forward and backward, recorded with the
names and call counts torch.profiler reports for the same iterations of the same loop
(aten_train.py: conv, ReLU, linear, cross-entropy, SGD with momentum). The reference
counts come from torch.profiler itself, in a run without the agent."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

PROGRAM = "aten_train.py"


def torch_profiler_counts(first, end, steps=5, agent=False, environment=None, options=()):
    """{name: calls} that torch.profiler reports for iterations first..end-1, and the run
    (options: aten_train.py's, after --torch-profiler)."""
    run = agent_runner.run_python(
        [agent_runner.program(PROGRAM), str(steps), "--torch-profiler", str(first), str(end)]
        + list(options), agent=agent, environment=environment)
    if run.returncode != 0:
        raise AssertionError(run.stderr)
    return json.loads(run.stdout.splitlines()[-1]), run


def operator_counts(facts):
    return {name: count for name, count in facts["ranges"].items()
            if name not in agent_runner.PHASES}


def inside(events, name, phase):
    """How many `name` events lie within a `phase` event on the same thread."""
    phases = [event for event in events if event["name"] == phase]
    return sum(1 for event in events if event["name"] == name and any(
        outer["tid"] == event["tid"] and outer["ts"] - 0.002 <= event["ts"] and
        event["ts"] + event["dur"] <= outer["ts"] + outer["dur"] + 0.002  # ns rounding
        for outer in phases))


class AtenOperatorsTest(unittest.TestCase):
    def test_names_and_calls_equal_torch_profilers(self):
        agent_runner.require_torch(self)
        expected, plain = torch_profiler_counts(1, 4)
        run = agent_runner.run_python([agent_runner.program(PROGRAM), "5"], environment={
            "PROF_PYTHON_OPS": "1", "PROF_SCHEDULE": "1:4"})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.helper_failures(), [])
        self.assertEqual(run.stdout, "".join(plain.stdout.splitlines(True)[:-1]))
        facts = agent_runner.trace_facts(run.output_dir)
        self.assertEqual(facts["steps"], [1, 2, 3])
        # Forward and backward operators, in-place names with their underscore.
        for name in ("aten::conv2d", "aten::addmm", "aten::relu", "aten::add_",
                     "aten::convolution_backward", "aten::threshold_backward",
                     "autograd::engine::evaluate_function: AddmmBackward0",
                     "Optimizer.step#SGD.step"):
            self.assertIn(name, expected)
        # Every name and count equal, and nothing else (none of the helper's own calls).
        self.assertEqual(operator_counts(facts), expected)
        # torch's record_function ranges (user scope: Optimizer.step#SGD.step,
        # Optimizer.zero_grad#SGD.zero_grad, enumerate(DataLoader)#...) are user ranges,
        # as torch writes them (user_annotation); the rest operators.
        user, _ = torch_profiler_counts(1, 4, options=["--user-scope"])
        self.assertIn("Optimizer.step#SGD.step", user)
        self.assertEqual(facts["ranges_by_kind"]["RANGE_KIND_USER"], sum(user.values()))
        self.assertEqual(facts["ranges_by_kind"]["RANGE_KIND_OPERATOR"],
                         sum(expected.values()) - sum(user.values()))
        # One Forward per step: the model and the loss module together.
        self.assertEqual(agent_runner.phase_counts(facts), {
            "Dataloader": 3, "Forward": 3, "Backward": 3, "Optimization": 3})
        # Each operator lies in its phase, by the times PyTorch took for it.
        events = agent_runner.chrome_events(run.output_dir)
        for operator, phase in (("aten::conv2d", "Forward"), ("aten::cross_entropy_loss", "Forward"),
                                ("aten::convolution_backward", "Backward"),
                                ("Optimizer.step#SGD.step", "Optimization")):
            self.assertEqual(inside(events, operator, phase), 3, operator)
        # The collection is read once, before the boundary that ends the window: each step
        # still holds its own operators, by their times.
        steps = [event for event in events if event["name"].startswith("ProfileStep#")]
        self.assertEqual(len(steps), 3)
        for step in steps:
            self.assertEqual(sum(1 for event in events if event["name"] == "aten::conv2d"
                                 and step["ts"] <= event["ts"] <= step["ts"] + step["dur"]),
                             1, step["name"])

    def test_autocast_attention_replay_equals_torch_profiler_on_the_same_result(self):
        # Conv + attention under autocast (bfloat16), AdamW: torch.profiler over iterations
        # 1..6, and the helper's replay of that same result. A call whose only child has
        # its name (autocast's aten::bmm calling the kernel's) is folded by torch's table.
        # torch nests by whole microseconds, the helper by the event tree's nanoseconds:
        # the same names, and counts apart by at most the few calls the microseconds fold (what torch folds
        # that way varies from run to run of torch.profiler itself).
        agent_runner.require_torch(self)
        run = agent_runner.run_python([agent_runner.program("aten_autocast.py"),
                                       agent_runner.helper_folder(), "8", "1", "7"],
                                      agent=False)
        self.assertEqual(run.returncode, 0, run.stderr)
        counts = json.loads(run.stdout.splitlines()[-1])
        self.assertEqual(set(counts["replay"]), set(counts["torch"]))
        # What torch's table folds comes from torch itself (1.13: autocast's aten::bmm; torch
        # 2 on the CPU: aten::scaled_dot_product_attention, aten::div_): the replay folds
        # some of the same names.
        folded = {name for name, calls in counts["torch"].items()
                  if calls < counts["tree"][name]}
        self.assertTrue(folded, counts)
        self.assertTrue({name for name in folded
                         if counts["replay"][name] < counts["tree"][name]}, counts)
        # What torch's microseconds fold differently varies from run to run of torch itself
        # (aten::div_ 6 to 9 of 12): torch folds between none and all of the calls the
        # replay folds (so it lies between the replay's count and the tree's), and now and
        # then a few more (a call it sees inside its sibling: 2, and 1% of the calls).
        for name, calls in counts["torch"].items():
            replayed, tree = counts["replay"][name], counts["tree"][name]
            self.assertLessEqual(calls, tree, name)
            self.assertGreaterEqual(calls, replayed - max(2, replayed // 100),
                                    (name, replayed, calls))

    def test_shapes_sources_and_flops_of_aten_operators(self):
        # PROF_SHAPES=1: each operator carries its input shapes (prof_operator_range_detail)
        # and the Operator Summary computes FLOPs from them. PROF_STACKS=1 beside it must
        # not break the collection (torch 1.13's Python tracer cannot give source lines).
        agent_runner.require_torch(self)
        run = agent_runner.run_python([agent_runner.program(PROGRAM), "5"], environment={
            "PROF_PYTHON_OPS": "1", "PROF_SCHEDULE": "1:4", "PROF_SHAPES": "1",
            "PROF_STACKS": "1"})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.helper_failures(), [])
        # The input shapes torch.profiler's record_shapes gives the same iterations
        # (key_averages grouped by input shape), for every operator.
        plain = agent_runner.run_python([agent_runner.program(PROGRAM), "5", "--torch-profiler",
                                         "1", "4", "--record-shapes"], agent=False)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        expected = json.loads(plain.stdout.splitlines()[-1])
        # The classifier: bias [10], flattened activations [4, 512], weight.t() [512, 10],
        # beta and alpha (scalars: [], as torch.profiler's record_shapes shows them).
        self.assertEqual(expected["aten::addmm"], {"[[10], [4, 512], [512, 10], [], []]": 3})
        recorded = {}
        for event in agent_runner.chrome_events(run.output_dir):
            if event["name"] in expected:
                shapes = recorded.setdefault(event["name"], {})
                dims = event.get("args", {}).get("Input Dims", "[]")
                shapes[dims] = shapes.get(dims, 0) + 1
        self.maxDiff = None  # a difference is printed whole (once in CI: the first operator differed)
        self.assertEqual(recorded, expected)
        rows = {row["name"]: row for row in agent_runner.analyzer_tables(run.output_dir)["operator"]["rows"]}
        # 2 * M * K * N per call (one multiply-add is 2 FLOPs), 3 calls.
        self.assertEqual(rows["aten::addmm"]["flops"], 3 * 2 * 4 * 512 * 10)

    def test_the_programs_own_torch_profiler_goes_first(self):
        agent_runner.require_torch(self)
        expected, _ = torch_profiler_counts(1, 3)
        # Under the agent the program's torch.profiler (iterations 1 and 2) sees all it
        # saw without it; the agent records operators in the other steps (0, 3, 4).
        counted, run = torch_profiler_counts(1, 3, agent=True,
                                             environment={"PROF_PYTHON_OPS": "1"})
        self.assertEqual(run.helper_failures(), [])
        self.assertEqual(counted, expected)
        facts = agent_runner.trace_facts(run.output_dir)
        self.assertEqual(facts["steps"][:5], [0, 1, 2, 3, 4])  # then the teardown at exit
        self.assertEqual(facts["ranges"].get("aten::addmm"), 3)
        self.assertEqual(facts["ranges"].get("aten::convolution_backward"), 3)

    def test_dataloader_workers_and_phases_unchanged(self):
        agent_runner.require_torch(self)
        arguments = [agent_runner.program("train.py"), "3", "4"]  # 2 forked workers
        plain = agent_runner.run_python(arguments, agent=False)
        run = agent_runner.run_python(arguments, environment={"PROF_PYTHON_OPS": " On "})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout, plain.stdout)
        self.assertEqual(run.helper_failures(), [])
        facts = agent_runner.trace_facts(run.output_dir)
        self.assertEqual(facts["ranges"].get("aten::linear"), 6)  # two layers, 3 steps
        self.assertEqual(facts["ranges"].get("aten::mse_loss"), 3)
        self.assertIn("aten::mse_loss_backward", facts["ranges"])
        self.assertEqual(agent_runner.phase_counts(facts), {
            "Dataloader": 4, "Forward": 3, "Backward": 3, "Optimization": 3})

    def test_threads_forks_and_the_legacy_profiler(self):
        agent_runner.require_torch(self)
        run = agent_runner.run_python([agent_runner.program("aten_threads.py")],
                                      environment={"PROF_PYTHON_OPS": "1"})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout, "done\n")
        # Nothing on stderr: no helper failure, and no PyTorch warning about a profiler
        # left enabled on a thread that ended.
        self.assertEqual(run.stderr, "")
        facts = agent_runner.trace_facts(run.output_dir)
        # 4 steps per epoch: 2 epochs, then 1 on the thread (its last step drained as the
        # thread ended); none in the step under the program's own profiler.
        self.assertEqual(facts["ranges"].get("aten::addmm"), 12)
        self.assertEqual(facts["ranges"].get("aten::mse_loss"), 12)
        self.assertEqual(facts["ranges"].get("Forward"), 13)

    def test_step_ends_where_the_program_reached_step(self):
        # The window's operators are read once, at its last boundary, which takes a while
        # (torch builds its result; the replay): that time is the profiler's, after the
        # program reached step(), and must not lengthen the window's last step (on an H100
        # ProfilerStep#8 was 43.5 ms where torch.profiler's was 8.3). Each recorded step
        # lasts what the program's own clock says, the last included.
        agent_runner.require_torch(self)
        run = agent_runner.run_python([agent_runner.program("step_times.py"), "9", "2500"],
                                      environment={"PROF_PYTHON_OPS": "1",
                                                   "PROF_SCHEDULE": "2:8"})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.helper_failures(), [])
        reached = json.loads(run.stdout.splitlines()[-1])
        events = agent_runner.chrome_events(run.output_dir)
        self.assertEqual(sum(1 for event in events if event["name"] == "aten::add"), 6 * 2500)
        steps = {int(event["name"].split("#")[1]): event["dur"] for event in events
                 if event["name"].startswith("ProfileStep#")}
        self.assertEqual(sorted(steps), [2, 3, 4, 5, 6, 7])
        program = {step: (reached[step] - reached[step - 1]) / 1e3 for step in steps}
        typical = sorted(program.values())[len(program) // 2]
        for step, duration in steps.items():
            # A quarter of a step: the load of a shared machine, never the read (a whole
            # window's operators, several steps' worth at ~1 us each).
            self.assertLess(abs(duration - program[step]), typical / 4,
                            (step, steps, program))


if __name__ == "__main__":
    unittest.main()
