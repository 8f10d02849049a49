import type { DestinationStream } from 'pino';
import { PinoLoggerFactory } from '../../../../src/plugins/observability/PinoLoggerFactory';
import { RequestContext } from '../../../../src/plugins/observability/RequestContext';

/** The factory with its lines kept in memory instead of stdout. */
class CapturingFactory extends PinoLoggerFactory {
  public static lines: string[] = [];

  protected override createDestination(): DestinationStream {
    return { write: (line: string): void => {
      CapturingFactory.lines.push(line);
    } };
  }
}

function parsed(): Record<string, unknown>[] {
  return CapturingFactory.lines.map((line): Record<string, unknown> => JSON.parse(line) as Record<string, unknown>);
}

describe('PinoLoggerFactory', (): void => {
  beforeEach((): void => {
    CapturingFactory.lines = [];
  });

  it('writes one JSON line per message with level, time, pid, component and message', (): void => {
    const logger = new CapturingFactory('info', 'json').createLogger('ContainerInitializer');
    logger.info('Created container /notes/');
    logger.warn('Something odd');
    expect(CapturingFactory.lines).toHaveLength(2);
    expect(CapturingFactory.lines.every((line): boolean => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    const [ info, warn ] = parsed();
    expect(info).toMatchObject({ level: 'info', pid: process.pid, component: 'ContainerInitializer', msg: 'Created container /notes/' });
    expect(Number.isNaN(Date.parse(info.time as string))).toBe(false);
    expect(warn).toMatchObject({ level: 'warn', msg: 'Something odd' });
    expect(info.reqId).toBeUndefined();
  });

  it('leaves out lines below its level; verbose counts as debug', (): void => {
    const logger = new CapturingFactory('warn').createLogger('X');
    logger.info('no');
    logger.debug('no');
    logger.error('yes');
    expect(parsed().map((line): unknown => line.msg)).toEqual([ 'yes' ]);
    const debug = new CapturingFactory('debug').createLogger('Y');
    debug.verbose('v');
    debug.silly('s');
    expect(parsed().map((line): unknown => [ line.level, line.msg ])).toEqual([ [ 'error', 'yes' ], [ 'debug', 'v' ] ]);
  });

  it('adds the id of the request being served', async(): Promise<void> => {
    const logger = new CapturingFactory('info').createLogger('Handler');
    await RequestContext.run({ id: 'req-42' }, async(): Promise<void> => {
      await Promise.resolve();
      logger.warn('inside');
    });
    logger.warn('outside');
    const [ inside, outside ] = parsed();
    expect(inside.reqId).toBe('req-42');
    expect(outside.reqId).toBeUndefined();
  });

  it('writes the info lines of quiet loggers at debug, and removes secrets from messages', (): void => {
    const factory = new CapturingFactory('info', 'json', [ 'WebAclReader' ], [ '/webhooks/' ]);
    factory.createLogger('WebAclReader').info('Found applicable ACL document');
    factory.createLogger('WebAclReader').warn('kept');
    factory.createLogger('Other').error('POST /webhooks/abcdefSECRET failed with Bearer abc.def');
    const lines = parsed();
    expect(lines.map((line): unknown => line.msg)).toEqual([ 'kept', 'POST /webhooks/[redacted] failed with Bearer [redacted]' ]);
    expect(CapturingFactory.lines.join('')).not.toContain('abcdefSECRET');
  });

  it('gives structured loggers for lines made of fields', (): void => {
    const log = new CapturingFactory('info').structured('http');
    expect(log.isLevelEnabled('info')).toBe(true);
    expect(log.isLevelEnabled('debug')).toBe(false);
    log.info({ route: '/notes/', status: 200 }, 'request');
    expect(parsed()[0]).toMatchObject({ component: 'http', route: '/notes/', status: 200, msg: 'request' });
  });

  it('refuses unknown levels and formats', (): void => {
    expect((): unknown => new CapturingFactory('loud')).toThrow('Unknown log level');
    expect((): unknown => new CapturingFactory('info', 'xml')).toThrow('Unknown log format');
  });

  it('writes readable lines in the pretty format', (): void => {
    const chunks: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array): boolean => {
      chunks.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      const factory = new PinoLoggerFactory('info', 'pretty');
      factory.createLogger('Pretty').info('hello there');
      factory.structured('http').info({ reqId: 'r-9', method: 'GET', route: '/notes/*', status: 200, ms: 1.5 }, 'request');
    } finally {
      process.stdout.write = write;
    }
    const text = chunks.join('');
    expect(text).toContain('[Pretty] hello there');
    expect(text).toContain('INFO');
    expect(text).toContain('GET /notes/* 200 1.5 ms  r-9');
    // One line per event.
    expect(text.trim().split('\n')).toHaveLength(2);
    expect((): unknown => JSON.parse(text)).toThrow();
  });
});
