// Across ranks: GPU utilization (kernel busy time / profiled step time, per GPU, as in the
// Device Summary) and each rank's step time split into computation only, overlap,
// communication only and the rest (the Distributed Summary's figures, % of T).
'use strict';

function drawUtilization() {
  var devices = {};
  REPORT.ranks.forEach(function (rank) {
    Object.keys(rank.gpu_utilization).forEach(function (device) { devices[device] = true; });
  });
  var names = Object.keys(devices).sort();
  if (names.length === 0) { showEmpty('chart-utilization', 'No GPU activity recorded.'); return; }
  drawChart('chart-utilization', {
    title: { text: 'GPU utilization per rank' + chartedScope(), left: 'center', textStyle: { fontSize: 13 } },
    tooltip: { trigger: 'axis', valueFormatter: function (v) { return Number(v).toFixed(2) + ' %'; } },
    legend: { bottom: 0 },
    grid: baseGrid(),
    xAxis: { type: 'category', data: REPORT.ranks.map(rankLabel) },
    yAxis: { type: 'value', name: '%', max: 100 },
    series: names.map(function (device) {
      return {
        name: device, type: 'bar', barMaxWidth: 40,
        data: REPORT.ranks.map(function (rank) { return (rank.gpu_utilization[device] || 0) * 100; })
      };
    })
  });
}

function communicationParts(rank) {
  var total = rank.total_ns;
  if (total <= 0) return [0, 0, 0, 0];
  var overlap = rank.overlap_ns;
  var computation = Math.max(0, rank.computation_ns - overlap);
  var communication = Math.max(0, rank.communication_ns - overlap);
  var rest = Math.max(0, total - computation - communication - overlap);
  return [computation, overlap, communication, rest].map(function (ns) { return ns / total * 100; });
}

function drawCommunication() {
  if (!REPORT.ranks.some(function (rank) { return rank.total_ns > 0; })) {
    showEmpty('chart-communication', 'No profiled steps, so no communication breakdown.');
    return;
  }
  var names = ['Computation only', 'Overlap', 'Communication only', 'Neither'];
  drawChart('chart-communication', {
    title: { text: 'Communication / computation / overlap per rank (% of step time)' + chartedScope(), left: 'center',
             textStyle: { fontSize: 13 } },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' },
               valueFormatter: function (v) { return Number(v).toFixed(2) + ' %'; } },
    legend: { bottom: 0 },
    grid: baseGrid(),
    color: ['#5470c6', '#9a60b4', '#ee6666', '#d0d7de'],
    xAxis: { type: 'category', data: REPORT.ranks.map(rankLabel) },
    yAxis: { type: 'value', name: '%', max: 100 },
    series: names.map(function (name, index) {
      return { name: name, type: 'bar', stack: 'time', barMaxWidth: 40,
               data: REPORT.ranks.map(function (rank) { return communicationParts(rank)[index]; }) };
    })
  });
}
