import { StoreUnavailableError } from './StoreUnavailableError';

/**
 * Whether Oxigraph's WebAssembly engine can still be trusted. Its Rust code runs on a fixed-size
 * stack inside the WebAssembly memory, without guard pages: input it recurses over too deeply
 * (a query nested a few hundred levels, a few hundred BINDs...) overflows that stack and traps
 * ("memory access out of bounds"), and the instance is left broken for every later call, on every
 * dataset of this thread. After the first such fault nothing is served from the engine: every
 * operation answers 503 and the owner is told, so it can rebuild the datasets from their
 * snapshots and logs in a fresh engine (startEmbeddedStoreWorker restarts the worker thread).
 */
export class EngineHealth {
  private fault: Error | undefined;
  private readonly listeners: ((error: Error) => void)[] = [];

  /** A trap of the WebAssembly engine, or a stack overflow while it ran: not the client's input being wrong. */
  public static isEngineFault(error: unknown): error is Error {
    return error instanceof WebAssembly.RuntimeError ||
      (error instanceof RangeError && /call stack/iu.test(error.message));
  }

  public get failed(): Error | undefined {
    return this.fault;
  }

  /** Called once, on the first fault. */
  public onFault(listener: (error: Error) => void): void {
    this.listeners.push(listener);
  }

  /** Throws the 503 every operation answers once the engine is broken. */
  public check(): void {
    if (this.fault) {
      throw new StoreUnavailableError(`The store engine failed (${this.fault.message}); its data is being reloaded`);
    }
  }

  /**
   * Runs one call into the engine. An engine fault marks the engine broken and becomes a
   * StoreUnavailableError; any other error is rethrown as it is.
   */
  public guard<T>(call: () => T): T {
    this.check();
    try {
      return call();
    } catch (error: unknown) {
      if (!EngineHealth.isEngineFault(error)) {
        throw error;
      }
      this.report(error);
      throw new StoreUnavailableError(`The store engine failed (${error.message}); its data is being reloaded`);
    }
  }

  public report(error: Error): void {
    if (this.fault) {
      return;
    }
    this.fault = error;
    for (const listener of this.listeners) {
      listener(error);
    }
  }
}
