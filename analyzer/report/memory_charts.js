// Memory of the selected rank: each place's peak and end-of-step live bytes per step,
// and the memory-flow chart of one place (MegEngine's memory_flow.svg): time across,
// bytes up, one rectangle per allocation at its first-fit offset, the live-bytes line
// over them, and the largest blocks named (size, and the innermost frame where the agent
// recorded a stack). Blocks still alive at the end are orange: leak candidates.
'use strict';

var NAMED_BLOCKS = 5;
var MIB = 1024 * 1024;

function drawMemorySteps(rank) {
  var places = Object.keys(rank.memory);
  if (places.length === 0 || rank.steps.length === 0) {
    showEmpty('chart-memory-steps', places.length === 0
        ? 'Memory: not recorded for ' + rankLabel(rank) + ' (no allocation records in the trace).'
        : 'Memory per step: no steps recorded for ' + rankLabel(rank) + '.');
    return;
  }
  var series = [];
  places.forEach(function (place) {
    var flow = rank.memory[place];
    series.push({ name: place + ' peak', type: 'line', data: flow.step_peak_bytes.map(function (b) { return b / MIB; }) });
    series.push({ name: place + ' at step end', type: 'line', lineStyle: { type: 'dashed' },
                  data: flow.step_end_bytes.map(function (b) { return b / MIB; }) });
  });
  drawChart('chart-memory-steps', {
    title: { text: 'Allocated memory per step (' + rankLabel(rank) + '; reserved: not recorded)', left: 'center',
             textStyle: { fontSize: 13 } },
    tooltip: { trigger: 'axis', valueFormatter: function (v) { return formatBytes(v * MIB); } },
    legend: { type: 'scroll', bottom: 0 },
    grid: baseGrid(),
    xAxis: { type: 'category', name: 'step', data: rank.steps.map(function (s) { return String(s.number); }) },
    yAxis: { type: 'value', name: 'MiB' },
    series: series
  });
}

function blockLabel(block) {
  var frame = block.stack ? block.stack.split('\n')[0] : block.address;
  return formatBytes(block.bytes) + ' ' + frame;
}

function flowSeries(flow) {
  var largest = flow.blocks.slice().sort(function (a, b) { return b.bytes - a.bytes; }).slice(0, NAMED_BLOCKS);
  var data = flow.blocks.map(function (b) {
    return { value: [ms(b.start_ns), ms(b.end_ns), b.offset / MIB, (b.offset + b.bytes) / MIB],
             block: b, named: largest.indexOf(b) >= 0 };
  });
  var rects = {
    name: 'allocations', type: 'custom', data: data, encode: { x: [0, 1], y: [2, 3] },
    renderItem: function (params, api) {
      var item = data[params.dataIndex];
      var start = api.coord([api.value(0), api.value(3)]);
      var end = api.coord([api.value(1), api.value(2)]);
      var shape = echarts.graphic.clipRectByRect(
          { x: start[0], y: start[1], width: Math.max(1, end[0] - start[0]), height: Math.max(1, end[1] - start[1]) },
          { x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height });
      if (!shape) return null;
      var children = [{ type: 'rect', shape: shape, style: {
        fill: item.block.live_at_end ? 'rgba(247,146,35,0.75)' : 'rgba(84,112,198,0.55)', stroke: '#fff', lineWidth: 0.5 } }];
      if (item.named && shape.height > 12 && shape.width > 140) {  // only where the label fits
        children.push({ type: 'text', x: shape.x + 4, y: shape.y + 3, style: {
          text: blockLabel(item.block), fill: '#1f2328', font: '11px sans-serif' } });
      }
      return { type: 'group', children: children };
    }
  };
  var live = { name: 'live bytes', type: 'line', step: 'end', showSymbol: false, color: '#cf222e',
               data: flow.live.map(function (p) { return [ms(p[0]), p[1] / MIB]; }) };
  return [rects, live];
}

function drawMemoryFlow(rank, place) {
  var flow = rank.memory[place];
  if (!flow || flow.blocks.length === 0) {
    showEmpty('chart-memory-flow', 'Memory flow: not recorded for ' + rankLabel(rank) + '.');
    return;
  }
  drawChart('chart-memory-flow', {
    title: { text: 'Memory flow: ' + place + ' of ' + rankLabel(rank) + ' (peak ' + formatBytes(flow.peak_bytes) +
             ', ' + flow.allocations + ' allocations; the largest ' + flow.blocks.length + ' drawn)',
             left: 'center', textStyle: { fontSize: 13 } },
    tooltip: {
      formatter: function (p) {
        if (p.seriesType === 'line') return 'live: ' + formatBytes(p.value[1] * MIB) + ' at ' + formatMs(p.value[0]);
        var b = p.data.block;
        return formatBytes(b.bytes) + ' at ' + b.address + '<br>' + formatMs(ms(b.start_ns)) + ' to ' +
            (b.live_at_end ? 'the end (never freed)' : formatMs(ms(b.end_ns))) +
            (b.stack ? '<br>' + b.stack.replace(/</g, '&lt;').split('\n').slice(0, 6).join('<br>') : '');
      }
    },
    legend: { bottom: 0, data: ['live bytes'] },
    grid: baseGrid(),
    xAxis: { type: 'value', name: 'ms', scale: true },
    yAxis: { type: 'value', name: 'MiB' },
    dataZoom: [{ type: 'inside', filterMode: 'weakFilter' }],
    series: flowSeries(flow)
  });
}

// The place with the highest peak, GPUs before Host.
function defaultPlace(rank) {
  var places = Object.keys(rank.memory);
  places.sort(function (a, b) {
    var gpu = (b.indexOf('GPU') === 0) - (a.indexOf('GPU') === 0);
    return gpu !== 0 ? gpu : rank.memory[b].peak_bytes - rank.memory[a].peak_bytes;
  });
  return places[0];
}
