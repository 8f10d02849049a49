/**
 * A bounded mixed load: lanes that each repeat one kind of write (or read) until stopped, at most
 * `maxOpsPerLane` times, recording every acknowledged write in a Ledger and every other outcome
 * (answered without acknowledgement, or no answer at all) for the test to judge.
 */
import type { Operation, Outcome } from './app';
import { sleep } from './http';

export type Kind = 'ldp' | 'outbox' | 'webhook' | 'read';

/** An acknowledged write: what must still be there after any fault. */
export interface Ack {
  kind: Kind;
  marker: string;
  /** Location (LDP, outbox) or job id (webhook). */
  ref: string;
  /** Which phase of the test it was acknowledged in (a round of kills, an outage, ...). */
  phase: string;
}

/** An answer that was not an acknowledgement. */
export interface Refusal {
  kind: Kind;
  phase: string;
  status: number;
  body: string;
}

export class Ledger {
  readonly acks: Ack[] = [];
  readonly refusals: Refusal[] = [];
  /** Requests that got no answer (connection refused or reset, timed out). */
  readonly unanswered: { kind: Kind; phase: string; error: string }[] = [];

  of(kind: Kind): Ack[] {
    return this.acks.filter((ack) => ack.kind === kind);
  }
}

export interface Lane {
  kind: Kind;
  op: Operation;
  /** Concurrent loops of this lane; default 1. */
  concurrency?: number;
}

export interface LoadOptions {
  /** Bound on each loop; default 400. */
  maxOpsPerLane?: number;
  /** Pause after a request that got no answer, so a dead server is not hammered; default 100 ms. */
  pauseAfterFailureMs?: number;
}

/** A running load; stop() ends it and waits for the requests in flight. */
export class Load {
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private sequence = 0;
  inFlight = 0;
  /** Acknowledged writes of this load. */
  acked = 0;
  private readonly ackedByKind = new Map<Kind, number>();

  constructor(
    private readonly lanes: readonly Lane[],
    private readonly ledger: Ledger,
    private readonly phase: string,
    private readonly options: LoadOptions = {},
  ) {
    for (const lane of lanes) {
      for (let i = 0; i < (lane.concurrency ?? 1); i++) this.loops.push(this.loop(lane));
    }
  }

  /**
   * Resolves once `count` writes of this load were acknowledged, and at least `eachKind` of every
   * writing lane's kind (a slow lane is not outrun by fast ones); rejects after `timeoutMs`.
   */
  async untilAcked(count: number, { eachKind = 0, timeoutMs = 60_000 }: { eachKind?: number; timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const kinds = [ ...new Set(this.lanes.map((lane) => lane.kind).filter((kind) => kind !== 'read')) ];
    const short = (): Kind[] => kinds.filter((kind) => (this.ackedByKind.get(kind) ?? 0) < eachKind);
    while (this.acked < count || short().length > 0) {
      if (Date.now() > deadline) {
        throw new Error(`load ${this.phase}: ${this.acked} of ${count} writes acknowledged in ${timeoutMs} ms` +
          `${short().length > 0 ? `, fewer than ${eachKind} of ${short().join(', ')}` : ''}`);
      }
      await sleep(50);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private async loop(lane: Lane): Promise<void> {
    const max = this.options.maxOpsPerLane ?? 400;
    for (let n = 0; n < max && !this.stopped; n++) {
      this.sequence += 1;
      const marker = `${this.phase}-${lane.kind}-${this.sequence}-${Math.random().toString(36).slice(2, 8)}`;
      this.inFlight += 1;
      let outcome: Outcome | undefined;
      try {
        outcome = await lane.op(marker);
      } catch (err) {
        this.ledger.unanswered.push({ kind: lane.kind, phase: this.phase, error: String(err) });
      } finally {
        this.inFlight -= 1;
      }
      if (outcome === undefined) {
        await sleep(this.options.pauseAfterFailureMs ?? 100);
      } else if (outcome.ref !== undefined) {
        if (lane.kind !== 'read') {
          this.ledger.acks.push({ kind: lane.kind, marker, ref: outcome.ref, phase: this.phase });
          this.acked += 1;
          this.ackedByKind.set(lane.kind, (this.ackedByKind.get(lane.kind) ?? 0) + 1);
        }
      } else if (!(lane.kind === 'read' && outcome.status === 200)) {
        this.ledger.refusals.push({ kind: lane.kind, phase: this.phase, status: outcome.status, body: outcome.body.slice(0, 300) });
        await sleep(this.options.pauseAfterFailureMs ?? 100);
      }
    }
  }
}
