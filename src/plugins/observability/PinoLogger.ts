import type { Logger, LogLevel } from '@solid/community-server';
import type { Logger as Pino, Level } from 'pino';
import type { LogRedactor } from './LogRedactor';

/** CSS's levels as pino's: verbose is debug, silly is trace. */
const PINO_LEVELS: Record<LogLevel, Level> = {
  error: 'error', warn: 'warn', info: 'info', verbose: 'debug', debug: 'debug', silly: 'trace',
};

/**
 * CSS's Logger on a pino child logger: one JSON line per message, secrets removed from the text.
 * A quiet logger writes its info lines at debug (CSS components that log each request at info).
 */
export class PinoLogger implements Logger {
  /**
   * @param pino - The pino logger of this label.
   * @param redactor - Cleans every message.
   * @param quiet - Writes info as debug.
   */
  public constructor(
    private readonly pino: Pino,
    private readonly redactor: LogRedactor,
    private readonly quiet = false,
  ) {}

  public log(level: LogLevel, message: string): this {
    let target = PINO_LEVELS[level] ?? 'info';
    if (this.quiet && target === 'info') {
      target = 'debug';
    }
    // The redaction is not paid for lines the level leaves out.
    if (this.pino.isLevelEnabled(target)) {
      this.pino[target](this.redactor.redact(message));
    }
    return this;
  }

  public error(message: string): this {
    return this.log('error', message);
  }

  public warn(message: string): this {
    return this.log('warn', message);
  }

  public info(message: string): this {
    return this.log('info', message);
  }

  public verbose(message: string): this {
    return this.log('verbose', message);
  }

  public debug(message: string): this {
    return this.log('debug', message);
  }

  public silly(message: string): this {
    return this.log('silly', message);
  }
}
