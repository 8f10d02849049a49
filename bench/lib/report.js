'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const RESULTS_DIR = path.join(__dirname, '..', 'results');
const FLAG = '!';

// ---------- plain-text table ----------

// Render rows of strings as aligned columns: the first (label) column is
// left-aligned, all others right-aligned. `headerLines` may hold several rows.
function formatTable(headerLines, rows) {
  const all = [...headerLines, ...rows];
  const columnCount = Math.max(...all.map((row) => row.length));
  const widths = [];
  for (let col = 0; col < columnCount; col++) {
    widths.push(Math.max(...all.map((row) => String(row[col] ?? '').length)));
  }
  const renderRow = (row) => widths.map((width, col) => {
    const cell = String(row[col] ?? '');
    return col > 0 ? cell.padStart(width) : cell.padEnd(width);
  }).join('  ').trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [...headerLines.map(renderRow), rule, ...rows.map(renderRow)].join('\n');
}

function formatNumber(value, digits = 1) {
  if (value === undefined || value === null || Number.isNaN(value)) {
    return '-';
  }
  return value >= 1000 ? Math.round(value).toString() : value.toFixed(digits);
}

function formatRatio(ratio) {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) {
    return '-';
  }
  if (ratio >= 10) {
    return `${ratio.toFixed(1)}x`;
  }
  return `${ratio >= 0.1 ? ratio.toFixed(2) : ratio.toFixed(3)}x`;
}

// ---------- comparisons ----------

function resultFor(results, targetId, scenarioId) {
  const byScenario = results[targetId];
  const result = byScenario && byScenario[scenarioId];
  return result && !result.skipped ? result : null;
}

// Throughput ratio numerator/denominator; flagged when either side answered errors.
function ratioBetween(results, scenarioId, numeratorId, denominatorId) {
  const top = resultFor(results, numeratorId, scenarioId);
  const bottom = resultFor(results, denominatorId, scenarioId);
  if (!top || !bottom || !bottom.reqPerSec) {
    return { ratio: null, flagged: false };
  }
  return { ratio: top.reqPerSec / bottom.reqPerSec, flagged: top.flagged || bottom.flagged };
}

function headerFor(targets, ratios) {
  const names = ['scenario'];
  const units = [''];
  for (const target of targets) {
    names.push(target.label, '');
    units.push('req/s', 'p99 ms');
  }
  for (const [top, bottom] of ratios) {
    names.push(`${labelOf(targets, top)}/`);
    units.push(labelOf(targets, bottom));
  }
  return [names, units];
}

function labelOf(targets, id) {
  const target = targets.find((candidate) => candidate.id === id);
  return target ? target.label : id;
}

function cellsFor(results, target, scenarioId) {
  if (target.unavailable) {
    return ['n/a', 'n/a'];
  }
  const result = resultFor(results, target.id, scenarioId);
  if (!result) {
    return ['-', '-'];
  }
  const flag = result.flagged ? ` ${FLAG}` : '';
  return [`${formatNumber(result.reqPerSec)}${flag}`, formatNumber(result.latencyP99Ms, 0)];
}

// Ratio pairs comparing every other target with a named baseline.
function ratiosAgainstBaseline(targets, baselineId) {
  return targets.filter((target) => target.id !== baselineId).map((target) => [target.id, baselineId]);
}

/**
 * Text table: one row per scenario, req/s and p99 per target, then one
 * throughput-ratio column per [numeratorId, denominatorId] pair.
 * Below it, every flagged (errors / non-2xx) or unavailable result is explained.
 */
function comparisonTable({ scenarios, targets, results, ratios }) {
  const rows = scenarios.map((scenario) => {
    const row = [scenario.label];
    for (const target of targets) {
      row.push(...cellsFor(results, target, scenario.id));
    }
    for (const [top, bottom] of ratios) {
      const { ratio, flagged } = ratioBetween(results, scenario.id, top, bottom);
      row.push(`${formatRatio(ratio)}${flagged && ratio !== null ? ` ${FLAG}` : ''}`);
    }
    return row;
  });
  const notes = tableNotes({ scenarios, targets, results });
  return [formatTable(headerFor(targets, ratios), rows), ...notes].join('\n');
}

function tableNotes({ scenarios, targets, results }) {
  const notes = [];
  for (const target of targets) {
    if (target.unavailable) {
      notes.push(`  ${target.label}: not available: ${target.unavailable}`);
      continue;
    }
    for (const scenario of scenarios) {
      const entry = results[target.id] && results[target.id][scenario.id];
      if (entry && entry.skipped) {
        notes.push(`  ${target.label} / ${scenario.label}: skipped: ${entry.skipped}`);
      } else if (entry && entry.flagged) {
        notes.push(`  ${FLAG} ${target.label} / ${scenario.label}: INVALID, ${entry.problems.join('; ')}`);
      }
    }
  }
  if (notes.some((note) => note.includes(`${FLAG} `))) {
    notes.unshift(`${FLAG} = answered errors or non-2xx: that throughput is NOT a valid result`);
  }
  return notes;
}

/**
 * Evaluate "numerator is at least `min` times the denominator" goals.
 * A goal is never met on results that contain errors.
 */
function evaluateChecks(checks, results) {
  return checks.map((check) => {
    const top = resultFor(results, check.numerator, check.scenario);
    const bottom = resultFor(results, check.denominator, check.scenario);
    const outcome = { ...check, ratio: null, met: null, reason: '' };
    if (!top || !bottom) {
      outcome.reason = `no result for ${!top ? check.numerator : check.denominator}`;
    } else if (top.flagged) {
      outcome.met = false;
      outcome.reason = `${check.numerator} answered errors: ${top.problems.join('; ')}`;
    } else if (bottom.flagged) {
      outcome.reason = `${check.denominator} answered errors: ${bottom.problems.join('; ')}`;
    } else {
      outcome.ratio = top.reqPerSec / bottom.reqPerSec;
      outcome.met = outcome.ratio >= check.min;
    }
    return outcome;
  });
}

function formatChecks(outcomes) {
  return outcomes.map((outcome) => {
    const verdict = outcome.met === null ? 'UNKNOWN' : outcome.met ? 'MET' : 'NOT MET';
    const measured = outcome.ratio === null ? '' : `, measured ${formatRatio(outcome.ratio)}`;
    const reason = outcome.reason ? ` (${outcome.reason})` : '';
    return `  [${verdict}] ${outcome.label}: goal >= ${outcome.min}x${measured}${reason}`;
  }).join('\n');
}

// ---------- JSON output ----------

function machineInfo() {
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0] ? os.cpus()[0].model : 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage1m: os.loadavg()[0],
  };
}

// A warning when other work competes for the CPUs (servers and load
// generator already share them), or '' on a quiet machine.
function busyMachineWarning() {
  const load = os.loadavg()[0];
  const cpus = os.cpus().length;
  if (load <= cpus * 0.5) {
    return '';
  }
  return `warning: 1-minute load average is ${load.toFixed(1)} on ${cpus} CPUs; ` +
    'other processes compete with the benchmark, numbers will be noisy';
}

// Write bench/results/<name>-<timestamp>.json and return its path.
function writeResults(name, payload) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(RESULTS_DIR, `${name}-${stamp}.json`);
  const document = { name, writtenAt: new Date().toISOString(), machine: machineInfo(), ...payload };
  fs.writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  return file;
}

module.exports = {
  RESULTS_DIR,
  formatTable,
  formatNumber,
  formatRatio,
  comparisonTable,
  ratiosAgainstBaseline,
  evaluateChecks,
  formatChecks,
  writeResults,
  machineInfo,
  busyMachineWarning,
};
