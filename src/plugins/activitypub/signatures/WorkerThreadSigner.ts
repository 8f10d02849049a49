import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Finalizable } from '@solid/community-server';
import { getLoggerFor, Initializer } from '@solid/community-server';
import type { ByteSigner } from './ByteSigner';
import type { Rfc9421Algorithm, SignParameters } from './SignatureCommon';
import { signBytesAsync, signParameters } from './SignatureCommon';

/**
 * The signing thread: signs each job of a batch in turn and answers the batch in one message. Its code
 * is a string, run with `eval`, so that it is the same whether Fedpod runs from `dist/` or, in tests,
 * from the TypeScript sources.
 */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { sign } = require('node:crypto');
parentPort.on('message', ({ id, keys, jobs }) => {
  const results = jobs.map(([ keyIndex, digest, data, options ]) => {
    try {
      return { signature: sign(digest, data, options ? { ...options, key: keys[keyIndex] } : keys[keyIndex]) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  });
  parentPort.postMessage({ id, results });
});`;

/** One job of a batch as posted: index into the batch's keys, digest, data, padding/encoding options. */
type PostedJob = [ number, SignParameters['digest'], Uint8Array, SignParameters['options'] ];

interface BatchResult {
  id: number;
  results: { signature?: Uint8Array; error?: string }[];
}

interface QueuedSignature {
  alg: Rfc9421Algorithm;
  data: Buffer;
  privateKey: KeyObject;
  resolve: (signature: Buffer) => void;
  reject: (error: Error) => void;
}

interface SigningThread {
  worker: Worker;
  /** Batches posted and not answered yet, by id. */
  batches: Map<number, QueuedSignature[]>;
  /** Called once no batch is left unanswered. */
  idle: (() => void)[];
}

/** Signatures posted to the thread and not answered yet. */
function pendingOf(thread: SigningThread | undefined): number {
  let pending = 0;
  for (const jobs of thread?.batches.values() ?? []) {
    pending += jobs.length;
  }
  return pending;
}

/** When the thread has no batch left unanswered: lets the process exit without it, and wakes whoever waits. */
function notifyIfIdle(thread: SigningThread): void {
  if (thread.batches.size === 0) {
    thread.worker.unref();
    for (const resolve of thread.idle.splice(0)) {
      resolve();
    }
  }
}

/**
 * Signs on a few worker threads of its own, in batches: the signatures asked for in one turn of the
 * event loop go to the threads as one message each. A fan-out asks for hundreds of signatures at
 * once; made one by one on libuv's thread pool (`crypto.sign` with a callback), each woke a pool
 * thread that took the CPU from the main thread just as it was sending, and a 1,000-inbox fan-out
 * measured 12-15% slower than with two signing threads and batches (bench/federation).
 *
 * A thread that fails or exits fails the signatures it held (their deliveries are retried) and is
 * replaced on the next batch. After finalize() (server shutdown) signatures go to libuv's pool again,
 * so deliveries still running finish.
 *
 * As an initializer (at server start) it starts its threads, so the first fan-out does not wait for
 * them to boot (some 40 ms of CPU each).
 */
export class WorkerThreadSigner extends Initializer implements ByteSigner, Finalizable {
  protected readonly logger = getLoggerFor(this);
  private readonly threads: (SigningThread | undefined)[];
  private queued: QueuedSignature[] = [];
  private scheduled = false;
  private nextBatch = 0;
  private closed = false;

  /**
   * @param threadCount - Signing threads (at least 1); 2 suits a 2-core machine and signs ~6,000 RSA-2048 signatures/s there.
   */
  public constructor(threadCount = 2) {
    super();
    this.threads = Array.from({ length: Math.max(1, Math.floor(threadCount)) }, (): undefined => undefined);
  }

  public async sign(alg: Rfc9421Algorithm, data: Buffer, privateKey: KeyObject): Promise<Buffer> {
    if (this.closed) {
      return signBytesAsync(alg, data, privateKey);
    }
    return new Promise<Buffer>((resolve, reject): void => {
      this.queued.push({ alg, data, privateKey, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O callbacks of this turn: every delivery started in it joins the batch.
        setImmediate((): void => this.flush());
      }
    });
  }

  public async handle(): Promise<void> {
    if (!this.closed) {
      this.threads.forEach((thread, index): void => {
        if (!thread) {
          this.start(index);
        }
      });
    }
  }

  public async finalize(): Promise<void> {
    this.closed = true;
    this.flush();
    const threads = this.threads.splice(0, this.threads.length);
    await Promise.all(threads.map(async(thread): Promise<void> => {
      if (thread) {
        await this.whenAnswered(thread);
        await thread.worker.terminate();
      }
    }));
  }

  private flush(): void {
    this.scheduled = false;
    const queued = this.queued;
    this.queued = [];
    if (queued.length === 0) {
      return;
    }
    if (this.closed) {
      for (const job of queued) {
        signBytesAsync(job.alg, job.data, job.privateKey).then(job.resolve, job.reject);
      }
      return;
    }
    // A large batch is shared out; a small one (a turn often asks for one or two) goes to the thread with the least to do.
    const share = Math.ceil(queued.length / this.threads.length);
    for (let start = 0; start < queued.length; start += share) {
      this.post(this.leastBusy(), queued.slice(start, start + share));
    }
  }

  private leastBusy(): number {
    let best = 0;
    for (let index = 1; index < this.threads.length; index += 1) {
      if (pendingOf(this.threads[index]) < pendingOf(this.threads[best])) {
        best = index;
      }
    }
    return best;
  }

  private post(index: number, jobs: QueuedSignature[]): void {
    const thread = this.threads[index] ?? this.start(index);
    if (thread.batches.size === 0) {
      // Signatures under way keep the process alive, as any other pending I/O would.
      thread.worker.ref();
    }
    const keys: KeyObject[] = [];
    const keyIndexes = new Map<KeyObject, number>();
    const posted = jobs.map((job): PostedJob => {
      let keyIndex = keyIndexes.get(job.privateKey);
      if (keyIndex === undefined) {
        keyIndex = keys.push(job.privateKey) - 1;
        keyIndexes.set(job.privateKey, keyIndex);
      }
      const { digest, options } = signParameters(job.alg);
      // A copy of its own size: a small Buffer is a view of a shared 8 KiB pool, which posting would copy whole.
      return [ keyIndex, digest, new Uint8Array(job.data), options ];
    });
    const id = this.nextBatch;
    this.nextBatch += 1;
    thread.batches.set(id, jobs);
    thread.worker.postMessage({ id, keys, jobs: posted });
  }

  private start(index: number): SigningThread {
    const worker = new Worker(THREAD_SOURCE, { eval: true });
    const thread: SigningThread = { worker, batches: new Map(), idle: [] };
    worker.on('message', ({ id, results }: BatchResult): void => {
      const jobs = thread.batches.get(id) ?? [];
      thread.batches.delete(id);
      jobs.forEach((job, position): void => {
        const { signature, error } = results[position] ?? { error: 'no answer' };
        if (signature) {
          job.resolve(Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength));
        } else {
          job.reject(new Error(`Signing failed: ${error}`));
        }
      });
      notifyIfIdle(thread);
    });
    const fail = (reason: string): void => {
      if (this.threads[index] === thread) {
        this.threads[index] = undefined;
      }
      if (thread.batches.size > 0 && !this.closed) {
        this.logger.error(`A signing thread ${reason}; its ${thread.batches.size} batch(es) fail and are retried`);
      }
      for (const jobs of thread.batches.values()) {
        for (const job of jobs) {
          job.reject(new Error(`The signing thread ${reason}`));
        }
      }
      thread.batches.clear();
      notifyIfIdle(thread);
    };
    worker.on('error', (error: Error): void => fail(`failed: ${error.message}`));
    worker.on('exit', (code: number): void => fail(`exited (code ${code})`));
    // Idle, never what keeps the process alive (finalize() ends the threads at shutdown). After the
    // listeners: adding a 'message' listener refs the thread's port again.
    worker.unref();
    this.threads[index] = thread;
    return thread;
  }

  /** Resolves once every batch posted to the thread has its answer (or has failed). */
  private async whenAnswered(thread: SigningThread): Promise<void> {
    if (thread.batches.size > 0) {
      await new Promise<void>((resolve): void => {
        thread.idle.push(resolve);
      });
    }
  }
}
