/**
 * Records of a local queue journal (see LocalJournalQueue). Every record names a job
 * by its id; at most one pending job has a given id at a time.
 *
 * - `h` header, first record of every journal file
 * - `a` a pending job: added, or rewritten by compaction (`d` its data, `due` epoch ms,
 *   `f` failed runs so far, `i` runs cut short by a crash so far)
 * - `s` a run started (not waited for: lost with a crash, the run is simply not counted)
 * - `u` a run failed and the job waits until `due`, or a crash cut a run short
 * - `c` completed: the job is gone
 * - `x` dead: the pending job becomes a dead letter
 * - `D` a dead letter, rewritten by compaction
 */
export type JournalRecord =
  | { t: 'h'; v: number; queue: string }
  | { t: 'a'; id: string; d: unknown; due: number; f: number; i: number }
  | { t: 's'; id: string }
  | { t: 'u'; id: string; due: number; f: number; i: number; e?: string }
  | { t: 'c'; id: string }
  | { t: 'x'; id: string; f: number; e: string; at: number }
  | { t: 'D'; id: string; d: unknown; f: number; e: string; at: number };

export const JOURNAL_FORMAT_VERSION = 1;
