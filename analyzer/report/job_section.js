// The job layout (a job of many ranks; analyzer/report/job_layout.h), present when
// REPORT.job is: the job view's tables as the cross-rank section (cells as
// `profanalyze --views job` prints them), the worst straggler and last arrival as the
// finding line, the heat map aggregated into rows of consecutive ranks (each cell the row's
// slowest rank at that step), and the note saying how many ranks have no charts of their own.
'use strict';

function addText(parent, tag, text, className) {
  var element = document.createElement(tag);
  element.textContent = text;
  if (className) element.className = className;
  parent.appendChild(element);
  return element;
}

function jobTable(table) {
  var box = document.createElement('div');
  box.className = 'job-table';
  box.dataset.key = table.key;
  addText(box, 'h3', table.title);
  table.preamble.forEach(function (line) { addText(box, 'p', line, 'job-line'); });
  var scroller = document.createElement('div');
  scroller.className = 'table-box';
  var element = document.createElement('table');
  var head = element.createTHead().insertRow();
  table.columns.forEach(function (column) { addText(head, 'th', column); });
  var body = element.createTBody();
  table.rows.forEach(function (cells) {
    var row = body.insertRow();
    cells.forEach(function (cell) { addText(row, 'td', cell); });
  });
  box.dataset.rows = String(table.rows.length);
  scroller.appendChild(element);
  box.appendChild(scroller);
  table.epilogue.concat(table.note).forEach(function (line) { addText(box, 'p', line, 'answers'); });
  return box;
}

function drawJobSection() {
  document.getElementById('job-section').hidden = false;
  var box = document.getElementById('job-tables');
  REPORT.job.tables.forEach(function (table) { box.appendChild(jobTable(table)); });
  box.dataset.tables = String(REPORT.job.tables.length);
}

function drawRankScope() {
  var job = REPORT.job, scope = document.getElementById('rank-scope');
  var others = job.processes - REPORT.ranks.length;
  scope.hidden = false;
  scope.textContent = 'Charts of their own for ' + REPORT.ranks.length + ' of ' + job.processes +
      ' ranks (the outliers in the picker, each with why); the other ' + others +
      ' are aggregated in the heat map and counted in the job tables.';
  scope.dataset.charted = String(REPORT.ranks.length);
  scope.dataset.aggregated = String(others);
}

function drawJobStragglerLine() {
  var job = REPORT.job, line = document.getElementById('straggler-line');
  var text = job.straggler ? 'Straggler (computes longest before the collectives): ' + job.straggler.label +
      ' (host ' + job.straggler.host + ').' : 'No straggler: no step has a rank computing longer than the median.';
  if (job.last_arrival) text += ' Last to arrive at the collectives: ' + job.last_arrival.label + '.';
  line.textContent = text + ' How much: the job section above.';
  if (job.straggler) line.dataset.stragglerRank = String(job.straggler.rank);
}

function extent(values) {
  var low = Infinity, high = -Infinity;
  values.forEach(function (v) { low = Math.min(low, v); high = Math.max(high, v); });
  return [low, high];
}

// Cells: [column, row, max compute ns, the rank's label, its step, (rank, step) records].
function drawJobHeatMap() {
  var map = REPORT.job.heat_map, id = 'chart-straggler', box = document.getElementById(id);
  if (map.cells.length === 0) { showEmpty(id, 'No steps recorded.'); return; }
  box.style.height = Math.min(1400, Math.max(320, 100 + 9 * map.rows.length)) + 'px';
  var cells = map.cells.map(function (c) { return [c[0], c[1], ms(c[2]), c[3], c[4], c[5]]; });
  var range = extent(cells.map(function (c) { return c[2]; }));
  var parts = [];
  if (map.bucket_size > 1) parts.push('rows of up to ' + map.bucket_size + ' consecutive ranks');
  if (map.steps_per_column > 1) parts.push('columns of up to ' + map.steps_per_column + ' steps');
  drawChart(id, {
    title: { text: 'Straggler view: step compute (step time outside collectives), ' + map.ranks + ' ranks' +
             (parts.length ? ' in ' + parts.join(' and ') + ', each cell its slowest rank' : ''),
             left: 'center', textStyle: { fontSize: 13 } },
    tooltip: {
      formatter: function (p) {
        return map.rows[p.value[1]] + ', step ' + map.columns[p.value[0]] + ': ' + p.value[3] + ' computed ' +
            formatMs(p.value[2]) + ' in step ' + p.value[4] + ' (the most of ' + p.value[5] + ' rank-step(s))';
      }
    },
    grid: { left: 110, right: 90, top: 40, bottom: 40 },
    xAxis: { type: 'category', data: map.columns, name: 'step', nameLocation: 'center', nameGap: 26 },
    yAxis: { type: 'category', data: map.rows },
    visualMap: {
      min: range[0], max: range[1], calculable: true,
      orient: 'vertical', right: 0, top: 'center', text: ['slow', 'fast'], dimension: 2,
      inRange: { color: ['#f7fbff', '#6baed6', '#08306b'] }
    },
    series: [{ type: 'heatmap', data: cells, progressive: 0 }]
  });
  box.dataset.rows = String(map.rows.length);
  box.dataset.columns = String(map.columns.length);
}

// The ranks grouped by the state of their data, as the banner lists them (all but complete).
function jobQualityLines() {
  if (!REPORT.job) return [];
  return REPORT.job.quality.filter(function (group) { return group.state !== 'complete'; }).map(function (group) {
    var more = group.ranks - group.named.length;
    return group.ranks + ' rank(s): ' + group.state + ': ' + group.named.join(', ') +
        (more > 0 ? ' and ' + more + ' more' : '');
  });
}
