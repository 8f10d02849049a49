import type { Logger, LoggerFactory } from '@solid/community-server';
import type { DestinationStream, Level, Logger as Pino } from 'pino';
import { destination, pino, stdTimeFunctions } from 'pino';
import pinoPretty from 'pino-pretty';
import { LogRedactor } from './LogRedactor';
import { PinoLogger } from './PinoLogger';
import { RequestContext } from './RequestContext';

/**
 * The part of a pino logger that structured lines need. A type of its own: the components
 * generator cannot read pino's generic types in the fields of a component.
 */
export interface StructuredLog {
  isLevelEnabled: (level: string) => boolean;
  info: (fields: Record<string, unknown>, message: string) => void;
}

const LEVELS: Record<string, Level> = {
  error: 'error', warn: 'warn', info: 'info', verbose: 'debug', debug: 'debug', silly: 'trace', trace: 'trace',
};

/**
 * CSS's LoggerFactory on pino (installed as the global one by CSS's LoggerInitializer): every
 * getLoggerFor() logger of Fedpod and CSS writes one JSON line per message to stdout, with the level,
 * time, pid, the logger's label as `component`, and `reqId` when written while serving a request
 * (RequestContext). `pretty` writes readable, coloured lines instead (pino-pretty), for development.
 * JSON lines are written asynchronously (pino flushes them when the process exits).
 */
export class PinoLoggerFactory implements LoggerFactory {
  private readonly root: Pino;
  /** For structured lines, which pass the request id themselves: no mixin to pay for on the hot path. */
  private readonly fieldsRoot: Pino;
  private readonly redactor: LogRedactor;
  private readonly quiet: Set<string>;

  /**
   * @param level - error, warn, info or debug (CSS's verbose counts as debug, silly as trace).
   * @param format - `json` (one JSON object a line) or `pretty`.
   * @param quietLabels - Loggers (class names) whose info lines are debug: CSS classes that log every request.
   * @param secretPaths - Path prefixes whose next segment is a secret, removed from messages (see LogRedactor).
   */
  public constructor(level = 'info', format = 'json', quietLabels: string[] = [], secretPaths: string[] = []) {
    const pinoLevel = LEVELS[level.toLowerCase()];
    if (!pinoLevel) {
      throw new Error(`Unknown log level ${JSON.stringify(level)}: use error, warn, info or debug`);
    }
    if (format !== 'json' && format !== 'pretty') {
      throw new Error(`Unknown log format ${JSON.stringify(format)}: use json or pretty`);
    }
    this.redactor = new LogRedactor(secretPaths);
    this.quiet = new Set(quietLabels);
    const options = {
      level: pinoLevel,
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label: string): Record<string, string> => ({ level: label }) },
    };
    // One destination for both, so that lines keep their order.
    const destination = this.createDestination(format);
    this.root = pino({
      ...options,
      mixin: (): Record<string, string> => {
        const id = RequestContext.currentId();
        return id === undefined ? {} : { reqId: id };
      },
    }, destination);
    this.fieldsRoot = pino(options, destination);
  }

  public createLogger(label: string): Logger {
    return new PinoLogger(this.root.child({ component: label }), this.redactor, this.quiet.has(label));
  }

  /** A pino logger for structured lines (fields, not text) under `component`; they carry no request id unless given one. */
  public structured(component: string): StructuredLog {
    return this.fieldsRoot.child({ component });
  }

  /** Where lines go: stdout. */
  protected createDestination(format: string): DestinationStream {
    if (format === 'pretty') {
      // Through process.stdout, in order with the CLI's own lines (speed does not matter here).
      // One line per event: request lines as `GET /route 200 1.2 ms id`, others as `[component] message (id)`.
      return pinoPretty({
        colorize: Boolean(process.stdout.isTTY),
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,component,reqId,method,route,status,ms',
        messageFormat: (log: Record<string, unknown>, messageKey: string): string => log.component === 'http' ?
          `${String(log.method)} ${String(log.route)} ${String(log.status)} ${String(log.ms)} ms  ${String(log.reqId)}` :
          `[${String(log.component)}] ${String(log[messageKey])}${log.reqId === undefined ? '' : `  (${String(log.reqId)})`}`,
        destination: process.stdout,
      });
    }
    // Lines are gathered up to 8 KiB and written together, at the latest a quarter second later: one
    // write per request line was 15% of a fast GET. pino flushes what is left when the process exits
    // (a kill -9 may lose the last quarter second of lines).
    const stream = destination({ dest: 1, sync: false, minLength: 8192 });
    setInterval((): void => {
      stream.flush();
    }, 250).unref();
    return stream;
  }
}
