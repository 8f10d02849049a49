// The growth report of bench/scale: a plain CommonJS script module with no types, hence require.
interface Result { kind: 'rate' | 'ms' | 'mb'; reqPerSec?: number; medianMs?: number; value?: number; flagged?: boolean }
interface Target { id: string; label: string; unavailable?: string; sizes: Record<number, { skipped?: string; rows?: Record<string, Result> }> }
interface Goal { label: string; row: string; maxGrowth?: number; maxMs?: number; atSize?: number }
interface Outcome extends Goal { measured: number | null; met: boolean | null; reason: string; compared: string }
interface Row { id: string; label: string; part: string }

// eslint-disable-next-line @typescript-eslint/no-require-imports
const table = require('../../../../bench/scale/table') as {
  ROWS: Row[];
  cost: (result?: Result) => number | null;
  valuesTable: (input: { sizes: number[]; targets: Target[]; rows?: Row[] }) => string;
  growthTable: (input: { sizes: number[]; targets: Target[]; fedpodId: string; cssId: string; rows?: Row[] }) => string;
  evaluateGoals: (input: { sizes: number[]; target: Target; goals: Goal[] }) => Outcome[];
  formatGoals: (outcomes: Outcome[]) => string;
};

const rows = table.ROWS.filter((row): boolean => [ 'get-note', 'first-uncached', 'startup' ].includes(row.id));

function target(id: string, label: string, sizes: Target['sizes']): Target {
  return { id, label, sizes };
}

describe('bench/scale table', (): void => {
  const fedpod = target('fedpod', 'Fedpod', {
    1000: { rows: { 'get-note': { kind: 'rate', reqPerSec: 400 }, 'first-uncached': { kind: 'ms', medianMs: 10 },
      startup: { kind: 'ms', medianMs: 900 }}},
    10000: { rows: { 'get-note': { kind: 'rate', reqPerSec: 200 }, 'first-uncached': { kind: 'ms', medianMs: 12 },
      startup: { kind: 'ms', medianMs: 6000 }}},
  });
  const css = target('css', 'CSS', {
    1000: { rows: { 'get-note': { kind: 'rate', reqPerSec: 20 }, 'first-uncached': { kind: 'ms', medianMs: 1000 }}},
    10000: { skipped: 'seeding past the time bound' },
  });

  it('counts a rate as milliseconds per request and a time or size as itself', (): void => {
    expect(table.cost({ kind: 'rate', reqPerSec: 250 })).toBe(4);
    expect(table.cost({ kind: 'ms', medianMs: 7 })).toBe(7);
    expect(table.cost({ kind: 'mb', value: 3 })).toBe(3);
    expect(table.cost({ kind: 'rate', reqPerSec: 0 })).toBeNull();
    expect(table.cost()).toBeNull();
  });

  it('prints each value with its unit, and n/a where a target could not reach a size', (): void => {
    const text = table.valuesTable({ sizes: [ 1000, 10000 ], targets: [ fedpod, css ], rows });
    const note = text.split('\n').find((line): boolean => line.startsWith('GET one note'))!;
    expect(note.split(/\s{2,}/u)).toEqual([ 'GET one note', '400.0/s', '200.0/s', '20.0/s', 'n/a' ]);
  });

  it('prints growth over the smallest size and CSS cost over Fedpod cost at each size', (): void => {
    const text = table.growthTable({ sizes: [ 1000, 10000 ], targets: [ fedpod, css ], fedpodId: 'fedpod', cssId: 'css', rows });
    const note = text.split('\n').find((line): boolean => line.startsWith('GET one note'))!;
    // Fedpod halves its rate: 2x dearer; CSS has no 10k; at 1k Fedpod is 20x cheaper.
    expect(note.split(/\s{2,}/u)).toEqual([ 'GET one note', '2.00x', '-', '20.0x', '-' ]);
  });

  it('checks growth and start-up goals at the sizes measured and says where the issue sets them', (): void => {
    const outcomes = table.evaluateGoals({ sizes: [ 1000, 10000 ], target: fedpod, goals: [
      { label: 'first page', row: 'first-uncached', maxGrowth: 1.5, atSize: 100000 },
      { label: 'start-up', row: 'startup', maxMs: 5000 },
    ]});
    expect(outcomes.map((outcome): [number | null, boolean | null] => [ outcome.measured, outcome.met ]))
      .toEqual([[ 1.2, true ], [ 6000, false ]]);
    expect(outcomes[0].compared).toBe('10k vs 1k');
    expect(table.formatGoals(outcomes)).toContain('[MET] first page, 10k vs 1k: goal <= 1.5x, measured 1.20x (the issue sets it at 100k');
  });

  it('never counts a goal as met on a result with errors, and says when a size is missing', (): void => {
    const flagged = target('fedpod', 'Fedpod', {
      1000: { rows: { 'get-note': { kind: 'rate', reqPerSec: 100 }}},
      10000: { rows: { 'get-note': { kind: 'rate', reqPerSec: 100, flagged: true }}},
    });
    const [ withErrors, missing ] = table.evaluateGoals({ sizes: [ 1000, 10000 ], target: flagged, goals: [
      { label: 'note', row: 'get-note', maxGrowth: 1.5 },
      { label: 'page', row: 'first-uncached', maxGrowth: 1.5 },
    ]});
    expect(withErrors.met).toBe(false);
    expect(withErrors.reason).toBe('answered errors');
    expect(missing.met).toBeNull();
    expect(missing.reason).toBe('no result at 1k');
  });
});
