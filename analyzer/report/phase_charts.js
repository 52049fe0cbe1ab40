// Per-step stacked bars of the selected rank: the model phases (Dataloader, Forward,
// Backward, Optimization, Others = the rest of the step), and GPU busy / idle.
'use strict';

function stepBars(rank, title, names, valuesOf, colors) {
  var steps = rank.steps.map(function (step) { return String(step.number); });
  return {
    title: { text: title + ' (' + rankLabel(rank) + ')', left: 'center', textStyle: { fontSize: 13 } },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: formatMs },
    legend: { bottom: 0 },
    grid: baseGrid(),
    color: colors,
    xAxis: { type: 'category', data: steps, name: 'step' },
    yAxis: { type: 'value', name: 'ms' },
    series: names.map(function (name, index) {
      return {
        name: name, type: 'bar', stack: 'step', barMaxWidth: 40,
        data: rank.steps.map(function (step) { return ms(valuesOf(step)[index]); })
      };
    })
  };
}

function drawPhases(rank) {
  if (rank.steps.length === 0) {
    showEmpty('chart-phases', 'No steps recorded for ' + rankLabel(rank) + '.');
    showEmpty('chart-gpu-busy', 'No steps recorded for ' + rankLabel(rank) + '.');
    return;
  }
  drawChart('chart-phases', stepBars(rank, 'Model phases per step', PHASES,
      function (step) { return step.phase_ns; }, ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#b0b7c3']));
  drawChart('chart-gpu-busy', stepBars(rank, 'GPU busy / idle per step', ['GPU busy', 'GPU idle'],
      function (step) { return [step.gpu_busy_ns, Math.max(0, step.duration_ns - step.gpu_busy_ns)]; },
      ['#2da44e', '#d0d7de']));
}
