// Shared by the report's charts: the embedded data, number formats, and drawing a chart
// into its box (recording in data-drawn how many shapes it drew, for the browser test).
'use strict';

var REPORT = JSON.parse(document.getElementById('report-data').textContent);
var PHASES = ['Dataloader', 'Forward', 'Backward', 'Optimization', 'Others'];
var charts = {};

function ms(ns) { return ns / 1e6; }

function formatMs(value) { return Number(value).toFixed(value >= 100 ? 1 : 3) + ' ms'; }

function formatBytes(bytes) {
  var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  var unit = 0;
  while (Math.abs(bytes) >= 1024 && unit < units.length - 1) { bytes /= 1024; unit++; }
  return (unit === 0 ? String(bytes) : bytes.toFixed(2)) + ' ' + units[unit];
}

function rankLabel(rank) {
  return rank.rank >= 0 ? 'rank ' + rank.rank : 'pid ' + rank.pid + '@' + rank.host;
}

function mean(values) {
  if (values.length === 0) return 0;
  return values.reduce(function (a, b) { return a + b; }, 0) / values.length;
}

// Replaces the box's content with a sentence saying why there is no chart.
function showEmpty(id, message) {
  if (charts[id]) { charts[id].dispose(); delete charts[id]; }
  var box = document.getElementById(id);
  box.innerHTML = '';
  box.style.height = 'auto';
  var note = document.createElement('p');
  note.className = 'empty';
  note.textContent = message;
  box.appendChild(note);
  box.dataset.drawn = 'empty';
  box.dataset.series = '';
}

// Draws `option` into the box `id` (reusing its chart), without animation so the first
// frame is the final one.
function drawChart(id, option) {
  var box = document.getElementById(id);
  if (!charts[id]) {
    box.innerHTML = '';
    if (box.dataset.drawn === 'empty') box.style.height = '';  // showEmpty set it to auto
    charts[id] = echarts.init(box, null, { renderer: 'canvas' });
  }
  option.animation = false;
  charts[id].setOption(option, true);
  var shapes = charts[id].getZr().storage.getDisplayList(true).length;
  box.dataset.drawn = String(shapes);
  // The series names drawn, for the browser test ("|" between).
  box.dataset.series = (option.series || []).map(function (s) { return s.name || ''; }).join('|');
  return charts[id];
}

function selectedRank() {
  var index = Number(document.getElementById('rank-select').value || 0);
  return REPORT.ranks[index];
}

// In a job's layout, the per-rank charts' titles say which ranks they hold.
function chartedScope() {
  return REPORT.job ? ' (the ' + REPORT.ranks.length + ' charted of ' + REPORT.job.processes + ' ranks)' : '';
}

function baseGrid() { return { left: 70, right: 30, top: 40, bottom: 50, containLabel: false }; }
