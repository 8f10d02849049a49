'use strict';

// The growth report of bench/scale, from plain results (no I/O): what each row costs at each size,
// its growth over the smallest size, Fedpod against CSS at the same size, and the issue's goals.
//
// A result is { kind: 'rate', reqPerSec, flagged } (a load run), { kind: 'ms', medianMs } (single
// requests, start-up) or { kind: 'mb', value }. Its cost is ms per request for a rate, else the number.

const { formatTable, formatNumber, formatRatio } = require('../lib/report');

const ROWS = [
  { id: 'get-note', label: 'GET one note', part: 'ldp' },
  { id: 'first-uncached', label: 'container first page, after a write', part: 'ldp' },
  { id: 'first-cached', label: 'container first page, repeated', part: 'ldp' },
  { id: 'last-uncached', label: 'container last page, after a write', part: 'ldp' },
  { id: 'last-cached', label: 'container last page, repeated', part: 'ldp' },
  { id: 'post', label: 'POST note', part: 'ldp' },
  { id: 'followers', label: 'followers page', part: 'collections' },
  { id: 'outbox', label: 'outbox first page', part: 'collections' },
  { id: 'outbox-uncached', label: 'outbox first page, after a POST', part: 'collections' },
  { id: 'startup', label: 'start-up to ready', part: 'ldp' },
  { id: 'rss-start', label: 'RSS after start-up', part: 'ldp' },
  { id: 'rss-end', label: 'RSS after measurements', part: 'ldp' },
  { id: 'disk', label: 'data on disk', part: 'ldp' },
];

const FLAG = '!';

function cost(result) {
  if (!result || result.skipped) {
    return null;
  }
  if (result.kind === 'rate') {
    return result.reqPerSec > 0 ? 1000 / result.reqPerSec : null;
  }
  const value = result.kind === 'ms' ? result.medianMs : result.value;
  return Number.isFinite(value) ? value : null;
}

function flagged(...results) {
  return results.some((result) => result && result.flagged);
}

function cell(result) {
  if (!result || result.skipped) {
    return '-';
  }
  const flag = result.flagged ? ` ${FLAG}` : '';
  if (result.kind === 'rate') {
    return `${formatNumber(result.reqPerSec)}/s${flag}`;
  }
  if (result.kind === 'ms') {
    return `${formatNumber(result.medianMs)} ms${flag}`;
  }
  return result.value === null || result.value === undefined ? '-' : `${formatNumber(result.value)} MB`;
}

function sizeLabel(size) {
  return size >= 1000 && size % 1000 === 0 ? `${size / 1000}k` : String(size);
}

/**
 * A target column group: { id, label, unavailable?, sizes: { [size]: { skipped } | { rows } } }.
 * Resolves the result of one row at one size, or a reason it has none.
 */
function resultAt(target, size, rowId) {
  const entry = target.sizes && target.sizes[size];
  return entry && entry.rows ? entry.rows[rowId] : undefined;
}

function valueCell(target, size, rowId) {
  if (target.unavailable) {
    return 'n/a';
  }
  const entry = target.sizes && target.sizes[size];
  if (entry && entry.skipped) {
    return 'n/a';
  }
  return cell(resultAt(target, size, rowId));
}

function ratioCell(top, bottom) {
  if (top === null || bottom === null || !bottom) {
    return '-';
  }
  return formatRatio(top / bottom);
}

/** The cost table: one row per measurement, one column per target and size. */
function valuesTable({ sizes, targets, rows = ROWS }) {
  const header = ['row', ...targets.flatMap((target) => sizes.map((size) => `${target.label} ${sizeLabel(size)}`))];
  const lines = rows.map((row) => [row.label, ...targets.flatMap((target) => sizes.map((size) => valueCell(target, size, row.id)))]);
  return formatTable([header], lines);
}

/**
 * Growth (cost at each larger size over the cost at the smallest, per target; above 1x it got
 * dearer) and Fedpod against CSS (CSS's cost over Fedpod's at the same size: for req/s rows that is
 * Fedpod's rate over CSS's, as bench/ldp prints Fedpod/CSS; above 1x Fedpod is cheaper).
 */
function growthTable({ sizes, targets, fedpodId, cssId, rows = ROWS }) {
  const smallest = sizes[0];
  const larger = sizes.slice(1);
  const fedpod = targets.find((target) => target.id === fedpodId);
  const css = targets.find((target) => target.id === cssId);
  const header = ['row'];
  for (const target of targets) {
    header.push(...larger.map((size) => `${target.label} ${sizeLabel(size)}/${sizeLabel(smallest)}`));
  }
  if (fedpod && css) {
    header.push(...sizes.map((size) => `Fedpod vs CSS ${sizeLabel(size)}`));
  }
  const lines = rows.map((row) => {
    const line = [row.label];
    for (const target of targets) {
      const base = resultAt(target, smallest, row.id);
      for (const size of larger) {
        const result = resultAt(target, size, row.id);
        const text = ratioCell(cost(result), cost(base));
        line.push(text !== '-' && flagged(base, result) ? `${text} ${FLAG}` : text);
      }
    }
    if (fedpod && css) {
      for (const size of sizes) {
        const ours = resultAt(fedpod, size, row.id);
        const theirs = resultAt(css, size, row.id);
        const text = ratioCell(cost(theirs), cost(ours));
        line.push(text !== '-' && flagged(ours, theirs) ? `${text} ${FLAG}` : text);
      }
    }
    return line;
  });
  return formatTable([header], lines);
}

/**
 * The issue's goals on one target: a row's cost at the largest size at most `maxGrowth` times its
 * cost at the smallest; start-up at the largest size at most `maxStartMs`. Each outcome says which
 * sizes it compared, since the issue states them at 100,000 (and 1,000).
 */
function evaluateGoals({ sizes, target, goals }) {
  const smallest = sizes[0];
  const largest = sizes[sizes.length - 1];
  return goals.map((goal) => {
    const outcome = { ...goal, measured: null, met: null, reason: '', compared: '' };
    if (goal.maxGrowth !== undefined) {
      outcome.compared = `${sizeLabel(largest)} vs ${sizeLabel(smallest)}`;
      const base = resultAt(target, smallest, goal.row);
      const result = resultAt(target, largest, goal.row);
      if (sizes.length < 2) {
        outcome.reason = 'needs two sizes';
      } else if (cost(base) === null || cost(result) === null) {
        outcome.reason = `no result at ${cost(base) === null ? sizeLabel(smallest) : sizeLabel(largest)}`;
      } else {
        outcome.measured = cost(result) / cost(base);
        outcome.met = !flagged(base, result) && outcome.measured <= goal.maxGrowth;
        outcome.reason = flagged(base, result) ? 'answered errors' : '';
      }
    } else {
      outcome.compared = `at ${sizeLabel(largest)}`;
      const result = resultAt(target, largest, goal.row);
      if (cost(result) === null) {
        outcome.reason = `no result at ${sizeLabel(largest)}`;
      } else {
        outcome.measured = cost(result);
        outcome.met = outcome.measured <= goal.maxMs;
      }
    }
    if (goal.atSize && goal.atSize !== largest) {
      outcome.reason = [outcome.reason, `the issue sets it at ${sizeLabel(goal.atSize)}; run with --large for that`]
        .filter(Boolean).join('; ');
    }
    return outcome;
  });
}

function formatGoals(outcomes) {
  return outcomes.map((outcome) => {
    const verdict = outcome.met === null ? 'UNKNOWN' : outcome.met ? 'MET' : 'NOT MET';
    const limit = outcome.maxGrowth !== undefined ? `goal <= ${outcome.maxGrowth}x` : `goal <= ${outcome.maxMs} ms`;
    const measured = outcome.measured === null ? '' :
      `, measured ${outcome.maxGrowth !== undefined ? formatRatio(outcome.measured) : `${Math.round(outcome.measured)} ms`}`;
    const reason = outcome.reason ? ` (${outcome.reason})` : '';
    return `  [${verdict}] ${outcome.label}, ${outcome.compared}: ${limit}${measured}${reason}`;
  }).join('\n');
}

module.exports = { ROWS, cost, valuesTable, growthTable, evaluateGoals, formatGoals, sizeLabel };
