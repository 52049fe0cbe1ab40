// Step time per rank (a line per rank over the run) and the straggler heat map (rank x
// step, colour = step time), with the slowest rank named: the rank whose average step is
// longest, and how far above the fastest it is.
'use strict';

function rankMeans() {
  return REPORT.ranks.map(function (rank) {
    return mean(rank.steps.map(function (step) { return ms(step.duration_ns); }));
  });
}

function drawStragglerLine() {
  var line = document.getElementById('straggler-line');
  var withSteps = REPORT.ranks.filter(function (rank) { return rank.steps.length > 0; });
  if (withSteps.length === 0) { line.textContent = 'No steps were recorded.'; return; }
  var means = rankMeans();
  var slowest = 0, fastest = 0;
  means.forEach(function (value, index) {
    if (REPORT.ranks[index].steps.length === 0) return;
    if (value > means[slowest] || REPORT.ranks[slowest].steps.length === 0) slowest = index;
    if (value < means[fastest] || REPORT.ranks[fastest].steps.length === 0) fastest = index;
  });
  var text = 'Slowest: ' + rankLabel(REPORT.ranks[slowest]) + ', average step ' + formatMs(means[slowest]);
  if (withSteps.length > 1) {
    var above = means[fastest] > 0 ? (means[slowest] / means[fastest] - 1) * 100 : 0;
    text += ', ' + above.toFixed(2) + '% above the fastest (' + rankLabel(REPORT.ranks[fastest]) + ', ' +
        formatMs(means[fastest]) + ').';
  }
  line.textContent = text;
  line.dataset.slowestRank = String(REPORT.ranks[slowest].rank);
}

function drawStepTime() {
  var series = REPORT.ranks.map(function (rank) {
    return {
      name: rankLabel(rank), type: 'line', showSymbol: rank.steps.length < 60,
      data: rank.steps.map(function (step) { return [step.number, ms(step.duration_ns)]; })
    };
  });
  if (!series.some(function (s) { return s.data.length > 0; })) {
    showEmpty('chart-step-time', 'No steps recorded (no ProfileStep ranges in the trace).');
    return;
  }
  drawChart('chart-step-time', {
    title: { text: 'Step time per rank' + chartedScope(), left: 'center', textStyle: { fontSize: 13 } },
    tooltip: { trigger: 'axis', valueFormatter: formatMs },
    legend: { type: 'scroll', bottom: 0 },
    grid: baseGrid(),
    xAxis: { type: 'value', name: 'step', minInterval: 1, scale: true },
    yAxis: { type: 'value', name: 'ms' },
    dataZoom: [{ type: 'inside' }],
    series: series
  });
}

function drawStragglerMap() {
  var cells = [], maxSteps = 0, values = [];
  REPORT.ranks.forEach(function (rank, row) {
    maxSteps = Math.max(maxSteps, rank.steps.length);
    rank.steps.forEach(function (step, column) {
      var value = ms(step.duration_ns);
      cells.push([column, row, value, step.number]);
      values.push(value);
    });
  });
  if (cells.length === 0) { showEmpty('chart-straggler', 'No steps recorded.'); return; }
  // A readable row per rank: the map grows with the number of ranks (up to 1200 px).
  document.getElementById('chart-straggler').style.height =
      Math.min(1200, Math.max(320, 90 + 16 * REPORT.ranks.length)) + 'px';
  var columns = [];
  for (var i = 0; i < maxSteps; i++) columns.push(String(i));
  drawChart('chart-straggler', {
    title: { text: 'Straggler view: step time, rank x step', left: 'center', textStyle: { fontSize: 13 } },
    tooltip: {
      formatter: function (p) {
        return rankLabel(REPORT.ranks[p.value[1]]) + ', step ' + p.value[3] + ': ' + formatMs(p.value[2]);
      }
    },
    grid: { left: 90, right: 90, top: 40, bottom: 40 },
    xAxis: { type: 'category', data: columns, name: 'step (n-th recorded)', nameLocation: 'center', nameGap: 26 },
    yAxis: { type: 'category', data: REPORT.ranks.map(rankLabel) },
    visualMap: {
      min: Math.min.apply(null, values), max: Math.max.apply(null, values), calculable: true,
      orient: 'vertical', right: 0, top: 'center', text: ['slow', 'fast'], dimension: 2,
      inRange: { color: ['#f7fbff', '#6baed6', '#08306b'] }
    },
    series: [{ type: 'heatmap', data: cells, progressive: 0 }]
  });
}
