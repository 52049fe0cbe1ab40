// The data-quality banner: everything that makes the figures below incomplete (records
// the agent lost, device records without their launch, files that could not be read or
// are cut short), red and sticky at the top; a green line when nothing was lost. In a
// job's layout, the ranks grouped by data-quality state first (every rank), then the
// charted ranks' own counts.
'use strict';

function qualityLines() {
  var lines = jobQualityLines();
  REPORT.unreadable_files.forEach(function (file) { lines.push('Unreadable file: ' + file); });
  REPORT.ranks.forEach(function (rank) {
    var who = rankLabel(rank) + ': ';
    var q = rank.quality;
    Object.keys(q.losses).forEach(function (kind) {
      if (q.losses[kind] > 0) lines.push(who + q.losses[kind] + ' record(s) lost by the agent (' + kind + ')');
    });
    Object.keys(q.unmatched_device_records).forEach(function (kind) {
      var count = q.unmatched_device_records[kind];
      if (count > 0) lines.push(who + count + ' ' + kind + ' record(s) without their launching call');
    });
    if (q.chunks_missing > 0) lines.push(who + q.chunks_missing + ' chunk(s) missing');
    if (q.bytes_skipped > 0) lines.push(who + formatBytes(q.bytes_skipped) + ' of corrupt data skipped');
    if (q.files_without_last_chunk > 0) {
      lines.push(who + q.files_without_last_chunk + ' file(s) end early (the process was killed?)');
    }
    if (q.malformed > 0) lines.push(who + q.malformed + ' malformed block(s), column(s) or reference(s)');
    if (q.frees_without_allocation > 0) {
      lines.push(who + q.frees_without_allocation + ' free(s) of memory allocated before the recording');
    }
    q.reader_issues.slice(0, 5).forEach(function (issue) { lines.push(who + issue); });
  });
  return lines;
}

function drawQualityBanner() {
  var banner = document.getElementById('quality-banner');
  var lines = qualityLines();
  banner.innerHTML = '';
  if (lines.length === 0) {
    banner.className = 'good';
    banner.textContent = 'Data quality: every record was written, read and matched.';
    return;
  }
  banner.className = 'bad';
  var title = document.createElement('h2');
  title.textContent = 'Data quality: ' + lines.length + ' problem(s); the figures below are incomplete';
  banner.appendChild(title);
  var list = document.createElement('ul');
  lines.forEach(function (line) {
    var item = document.createElement('li');
    item.textContent = line;
    list.appendChild(item);
  });
  banner.appendChild(list);
}
