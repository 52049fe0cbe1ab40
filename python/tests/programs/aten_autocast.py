"""Conv and attention under autocast (bfloat16) with AdamW, torch.profiler over iterations
FIRST..END-1; then the helper's replay of that same profiler result (aten_replay, the
agent's calls faked) beside torch.profiler's key_averages.

  aten_autocast.py HELPER_FOLDER STEPS FIRST END
Prints one JSON line: {"torch": {name: calls}, "replay": {name: calls},
"tree": {name: calls} (every event of the result's tree, nothing folded)}."""
import json
import sys

import torch

from replayed_counts import replayed_counts


class ConvAttention(torch.nn.Module):
    def __init__(self, channels=16, classes=10):
        super().__init__()
        self.conv = torch.nn.Sequential(torch.nn.Conv2d(3, channels, 3, padding=1),
                                        torch.nn.BatchNorm2d(channels), torch.nn.ReLU())
        self.attention = torch.nn.MultiheadAttention(channels, 4, batch_first=True)
        self.norm = torch.nn.LayerNorm(channels)
        self.head = torch.nn.Linear(channels, classes)

    def forward(self, images):
        tokens = self.conv(images).flatten(2).transpose(1, 2)
        attended, _ = self.attention(tokens, tokens, tokens, need_weights=False)
        return self.head(self.norm((tokens + attended).float()).mean(dim=1))


def main():
    steps, first, end = (int(value) for value in sys.argv[2:5])
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = ConvAttention()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loss_function = torch.nn.CrossEntropyLoss()
    profiler = None
    for index in range(steps):
        if index == first:
            profiler = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])
            profiler.__enter__()
        inputs, targets = torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,))
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = loss_function(model(inputs), targets)
        loss.backward()
        optimizer.step()
        loss.item()
        if index == end - 1:
            profiler.__exit__(None, None, None)
            break
    print(json.dumps(dict(replayed_counts(torch, profiler, sys.argv[1]),
                          torch={row.key: row.count for row in profiler.key_averages()})))


if __name__ == "__main__":
    main()
