// Draws the whole report: the banner and cross-rank charts once, the per-rank charts for
// the rank picked (the slowest at first; in a job's layout, the worst straggler), then
// marks <body data-report-status> "ok" or "error" with the script errors listed, for
// readers and for the browser test.
'use strict';

function drawRunLine() {
  var steps = REPORT.ranks.reduce(function (sum, rank) { return sum + rank.steps.length; }, 0);
  var files = REPORT.ranks.reduce(function (sum, rank) { return sum + rank.files.length; }, 0);
  var counts = steps + ' recorded step(s), ' + files + ' trace file(s)';
  document.getElementById('run-line').textContent = REPORT.job ?
      REPORT.job.processes + ' process(es); per-rank figures embedded for ' + REPORT.ranks.length + ' of them (' +
          counts + '). The job view aligns the ranks\' clocks on their collectives; the per-rank charts keep each ' +
          'process\'s own clock.' :
      REPORT.ranks.length + ' process(es), ' + counts + '. Times are on each process\'s own clock.';
}

function fillRankPicker(initial) {
  var select = document.getElementById('rank-select');
  REPORT.ranks.forEach(function (rank, index) {
    var option = document.createElement('option');
    option.value = String(index);
    option.textContent = rankLabel(rank) + (REPORT.job ? ': ' + REPORT.job.charted[index].join('; ') : '');
    select.appendChild(option);
  });
  select.value = String(initial);
  select.addEventListener('change', drawSelectedRank);
}

function fillPlacePicker(rank) {
  var select = document.getElementById('place-select');
  select.innerHTML = '';
  Object.keys(rank.memory).forEach(function (place) {
    var option = document.createElement('option');
    option.value = place;
    option.textContent = place;
    select.appendChild(option);
  });
  var place = defaultPlace(rank);
  if (place) select.value = place;
  select.onchange = function () { drawMemoryFlow(rank, select.value); };
  return place;
}

function drawSelectedRank() {
  var rank = selectedRank();
  drawPhases(rank);
  drawTopItems(rank);
  drawMemorySteps(rank);
  drawHostMemory(rank);
  drawMemoryFlow(rank, fillPlacePicker(rank));
}

function slowestIndex() {
  var means = rankMeans(), slowest = 0;
  means.forEach(function (value, index) { if (value > means[slowest]) slowest = index; });
  return slowest;
}

function finish() {
  var errors = window.reportErrors;
  document.body.dataset.scriptErrors = String(errors.length);
  if (errors.length > 0) {
    var box = document.createElement('div');
    box.id = 'script-errors';
    box.textContent = 'Script errors: ' + errors.join(' | ');
    document.body.insertBefore(box, document.body.firstChild);
  }
  document.body.dataset.reportStatus = errors.length === 0 ? 'ok' : 'error';
}

function drawReport() {
  drawRunLine();
  drawQualityBanner();
  if (REPORT.ranks.length === 0) {
    document.querySelector('main').innerHTML = '<p class="empty">Nothing could be read.</p>';
    return;
  }
  if (REPORT.job) {
    drawJobSection();
    drawRankScope();
    fillRankPicker(0);  // the worst straggler first
    drawJobStragglerLine();
    drawStepTime();
    drawJobHeatMap();
  } else {
    fillRankPicker(slowestIndex());
    drawStragglerLine();
    drawStepTime();
    drawStragglerMap();
  }
  drawUtilization();
  drawCommunication();
  drawSelectedRank();
  window.addEventListener('resize', function () {
    Object.keys(charts).forEach(function (id) { charts[id].resize(); });
  });
}

try {
  drawReport();
} catch (error) {
  window.reportErrors.push(String(error && error.stack || error));
}
finish();
