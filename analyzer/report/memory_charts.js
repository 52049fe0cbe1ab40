// Memory of the selected rank: per step, each GPU's allocator figures (allocated, reserved,
// peak) where the allocator was sampled, else each place's peak and end-of-step live bytes
// from the cudaMalloc records, and the host's RSS;
// and the memory-flow chart of one place (MegEngine's memory_flow.svg): time across,
// bytes up, one rectangle per allocation at its first-fit offset, the live-bytes line
// over them, and the largest blocks named (size, and the innermost frame where the agent
// recorded a stack). Blocks still alive at the end are orange: leak candidates.
'use strict';

var NAMED_BLOCKS = 5;
var MIB = 1024 * 1024;

function toMiB(bytes) { return bytes === null ? null : bytes / MIB; }

function anyRecorded(values) { return values.some(function (v) { return v !== null; }); }

// The places drawn per step: GPUs the allocator sampled (allocated / reserved / peak at the
// step's end), and every other place from the cudaMalloc records (peak and step-end bytes).
function memoryStepSeries(rank) {
  var sampled = rank.sampled_memory || {};
  var series = [], fromAllocator = [];
  Object.keys(sampled).forEach(function (place) {
    var figures = sampled[place];
    if (place === 'Host' || !anyRecorded(figures.allocated)) return;
    fromAllocator.push(place);
    [['allocated', 'solid'], ['reserved', 'dashed'], ['peak', 'dotted']].forEach(function (kind) {
      series.push({ name: place + ' ' + kind[0], type: 'line', connectNulls: false, lineStyle: { type: kind[1] },
                    data: figures[kind[0]].map(toMiB) });
    });
  });
  Object.keys(rank.memory).forEach(function (place) {
    if (fromAllocator.indexOf(place) >= 0) return;
    var flow = rank.memory[place];
    series.push({ name: place + ' peak', type: 'line', data: flow.step_peak_bytes.map(toMiB) });
    series.push({ name: place + ' at step end', type: 'line', lineStyle: { type: 'dashed' },
                  data: flow.step_end_bytes.map(toMiB) });
  });
  return { series: series, fromAllocator: fromAllocator };
}

function stepAxis(rank) {
  return { type: 'category', name: 'step', data: rank.steps.map(function (s) { return String(s.number); }) };
}

function drawMemorySteps(rank) {
  var drawn = memoryStepSeries(rank);
  if (drawn.series.length === 0 || rank.steps.length === 0) {
    showEmpty('chart-memory-steps', drawn.series.length === 0
        ? 'Device memory: not recorded for ' + rankLabel(rank) + ' (no allocator samples or allocation records).'
        : 'Memory per step: no steps recorded for ' + rankLabel(rank) + '.');
    return;
  }
  var source = drawn.fromAllocator.length > 0
      ? 'allocator samples at step end for ' + drawn.fromAllocator.join(', ')
      : 'cudaMalloc records; reserved: not recorded';
  drawChart('chart-memory-steps', {
    title: { text: 'Memory per step (' + rankLabel(rank) + '; ' + source + ')', left: 'center',
             textStyle: { fontSize: 13 } },
    tooltip: { trigger: 'axis', valueFormatter: function (v) { return v === null || v === undefined ? 'not recorded' : formatBytes(v * MIB); } },
    legend: { type: 'scroll', bottom: 0 },
    grid: baseGrid(),
    xAxis: stepAxis(rank),
    yAxis: { type: 'value', name: 'MiB' },
    series: drawn.series
  });
}

// The process's resident set size at each step's end, read by the agent at step boundaries.
function drawHostMemory(rank) {
  var host = (rank.sampled_memory || {}).Host;
  if (!host || !anyRecorded(host.rss) || rank.steps.length === 0) {
    showEmpty('chart-memory-host', 'Host RSS: not recorded for ' + rankLabel(rank) + '.');
    return;
  }
  drawChart('chart-memory-host', {
    title: { text: 'Host resident set size per step (' + rankLabel(rank) + ', at the step boundary)', left: 'center',
             textStyle: { fontSize: 13 } },
    tooltip: { trigger: 'axis', valueFormatter: function (v) { return v === null || v === undefined ? 'not recorded' : formatBytes(v * MIB); } },
    legend: { bottom: 0 },
    grid: baseGrid(),
    xAxis: stepAxis(rank),
    yAxis: { type: 'value', name: 'MiB', scale: true },
    series: [{ name: 'Host RSS', type: 'line', connectNulls: false, data: host.rss.map(toMiB) }]
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
