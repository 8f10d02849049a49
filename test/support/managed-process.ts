/**
 * The life cycle the test servers share (Virtuoso, Redis, Fedpod): spawn with a log file that is
 * kept across restarts, wait until ready while watching for an early exit, and stop, kill -9 or
 * restart by PID (checked against the process start time, so a reused PID is never ours).
 */
import {
  isAlive,
  killByPid,
  killHard,
  processStartTime,
  reaped,
  type SpawnedProcess,
} from './processes';

/** What a test sees of a server it started. */
export interface ManagedServer {
  /** Current PID (changes on restart). */
  pid: number;
  logFile: string;
  /** SIGTERM, then SIGKILL if it takes longer than the server's grace period. */
  stop(): Promise<void>;
  /** SIGKILL: a crash. */
  kill9(): Promise<void>;
  /** Stops it if running and starts it again on the same ports and files. */
  restart(): Promise<void>;
  /** Calls `listener` when it dies on its own once ready (not by stop, kill9 or restart). */
  onCrash(listener: (why: string) => void): void;
}

export abstract class ManagedProcess implements ManagedServer {
  pid = 0;
  logFile = '';
  private start = 0;
  private proc: SpawnedProcess | undefined;
  /** Set while stop(), kill9() or restart() ends the process: its exit is no crash. */
  private ending = false;
  private crashListener: ((why: string) => void) | undefined;

  protected constructor(
    /** Name used in "<name> exited with ..." while waiting for readiness. */
    private readonly processName: string,
    /** How long SIGTERM may take before SIGKILL. */
    private readonly graceMs: number,
  ) {}

  /** Starts the process; pass `this.reusedLogFile` as the log file so restarts append to it. */
  protected abstract spawn(): Promise<SpawnedProcess>;

  /** Resolves once the server serves; `abortIf` says why to give up early (the process exited). */
  protected abstract waitReady(abortIf: () => string | undefined): Promise<void>;

  /** The error to throw when the server did not become ready (the process is killed by then). */
  protected abstract startError(cause: unknown): Error;

  protected get reusedLogFile(): string | undefined {
    return this.logFile === '' ? undefined : this.logFile;
  }

  /**
   * Calls `listener` when the process, once ready, exits without stop(), kill9() or restart()
   * ending it (a crash of a server shared by the whole run).
   */
  onCrash(listener: (why: string) => void): void {
    this.crashListener = listener;
  }

  async launch(): Promise<void> {
    this.ending = false;
    const proc = await this.spawn();
    this.proc = proc;
    this.pid = proc.pid;
    this.logFile = proc.logFile;
    this.start = processStartTime(proc.pid) ?? 0;
    let exitInfo: string | undefined;
    let ready = false;
    void proc.exited.then(({ code, signal }) => {
      exitInfo = `${this.processName} exited with ${code ?? signal}`;
      if (ready && !this.ending && this.proc === proc) this.crashListener?.(exitInfo);
    });
    try {
      await this.waitReady(() => exitInfo);
      ready = true;
    } catch (err) {
      await killHard(proc.pid);
      throw this.startError(err);
    }
  }

  async stop(): Promise<void> {
    this.ending = true;
    await killByPid(this.pid, { start: this.start, graceMs: this.graceMs });
    await reaped(this.proc);
  }

  async kill9(): Promise<void> {
    this.ending = true;
    await killHard(this.pid, this.start);
    await reaped(this.proc);
  }

  async restart(): Promise<void> {
    if (isAlive(this.pid, this.start)) await this.stop();
    await this.launch();
  }
}
