// The selected rank's kernels and operators by GPU time: bars of the top 15 (names cut
// on the axis only), and below each a table of up to 100 rows with the whole names.
'use strict';

var TOP_BARS = 15;

function shortName(name) { return name.length > 48 ? name.slice(0, 45) + '...' : name; }

function drawTopBars(id, title, items) {
  var top = items.slice(0, TOP_BARS).reverse();
  drawChart(id, {
    title: { text: title, left: 'center', textStyle: { fontSize: 13 } },
    tooltip: {
      trigger: 'axis', axisPointer: { type: 'shadow' },
      formatter: function (params) {
        var item = top[params[0].dataIndex];
        return item.name.replace(/</g, '&lt;') + '<br>' + formatMs(ms(item.gpu_ns)) + ' in ' + item.calls + ' call(s)';
      }
    },
    grid: { left: 330, right: 40, top: 40, bottom: 30 },
    xAxis: { type: 'value', name: 'GPU ms' },
    yAxis: { type: 'category', data: top.map(function (item) { return shortName(item.name); }),
             axisLabel: { fontSize: 11 } },
    series: [{ type: 'bar', data: top.map(function (item) { return ms(item.gpu_ns); }), barMaxWidth: 18,
               itemStyle: { color: '#5470c6' } }]
  });
}

function cell(row, text, className) {
  var td = document.createElement(row.parentNode && row.parentNode.tagName === 'THEAD' ? 'th' : 'td');
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
}

// columns: [header, function(item) -> text]; the first column is the name.
function drawTable(id, items, columns) {
  var box = document.getElementById(id);
  box.innerHTML = '';
  var table = document.createElement('table');
  var head = table.createTHead().insertRow();
  columns.forEach(function (column, index) {
    var th = document.createElement('th');
    th.textContent = column[0];
    if (index === 0) th.className = 'name';
    head.appendChild(th);
  });
  var body = table.createTBody();
  items.forEach(function (item) {
    var row = body.insertRow();
    columns.forEach(function (column, index) { cell(row, column[1](item), index === 0 ? 'name' : ''); });
  });
  box.appendChild(table);
  box.dataset.rows = String(items.length);
}

function drawTopItems(rank) {
  var kernelTotal = rank.kernels.reduce(function (sum, item) { return sum + item.gpu_ns; }, 0);
  if (rank.kernels.length === 0) {
    showEmpty('chart-kernels', 'No kernels recorded for ' + rankLabel(rank) + '.');
    document.getElementById('table-kernels').innerHTML = '';
  } else {
    drawTopBars('chart-kernels', 'Top kernels by GPU time (' + rankLabel(rank) + ')', rank.kernels);
    drawTable('table-kernels', rank.kernels, [
      ['Kernel', function (k) { return k.name; }],
      ['Calls', function (k) { return String(k.calls); }],
      ['GPU total (ms)', function (k) { return ms(k.gpu_ns).toFixed(3); }],
      ['Avg (ms)', function (k) { return ms(k.gpu_ns / Math.max(1, k.calls)).toFixed(3); }],
      ['Max (ms)', function (k) { return ms(k.max_ns).toFixed(3); }],
      ['Min (ms)', function (k) { return ms(k.min_ns).toFixed(3); }],
      ['Ratio (%)', function (k) { return (kernelTotal > 0 ? k.gpu_ns / kernelTotal * 100 : 0).toFixed(2); }]
    ]);
  }
  if (rank.operators.length === 0) {
    showEmpty('chart-operators', 'No operator ranges recorded for ' + rankLabel(rank) + '.');
    document.getElementById('table-operators').innerHTML = '';
    return;
  }
  drawTopBars('chart-operators', 'Top operators by GPU time (' + rankLabel(rank) + ')', rank.operators);
  drawTable('table-operators', rank.operators, [
    ['Operator', function (o) { return o.name; }],
    ['Calls', function (o) { return String(o.calls); }],
    ['CPU total (ms)', function (o) { return ms(o.cpu_ns).toFixed(3); }],
    ['GPU total (ms)', function (o) { return ms(o.gpu_ns).toFixed(3); }],
    ['GPU avg (ms)', function (o) { return ms(o.gpu_ns / Math.max(1, o.calls)).toFixed(3); }]
  ]);
}
