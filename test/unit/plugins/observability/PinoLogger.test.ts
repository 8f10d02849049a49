import pino from 'pino';
import { LogRedactor } from '../../../../src/plugins/observability/LogRedactor';
import { PinoLogger } from '../../../../src/plugins/observability/PinoLogger';

/** A pino logger at `level` whose lines are kept, parsed. */
function capturing(level: string): { pino: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level, base: undefined, timestamp: false }, { write: (line: string): void => {
    lines.push(JSON.parse(line) as Record<string, unknown>);
  } });
  return { pino: logger, lines };
}

const LEVEL = { trace: 10, debug: 20, info: 30, warn: 40, error: 50 };

describe('PinoLogger', (): void => {
  it('writes each of CSS\'s levels at pino\'s: verbose as debug, silly as trace', (): void => {
    const { pino: target, lines } = capturing('trace');
    const logger = new PinoLogger(target, new LogRedactor());
    logger.error('e').warn('w').info('i').verbose('v').debug('d').silly('s');
    expect(lines.map((line): [unknown, unknown] => [ line.level, line.msg ])).toEqual([
      [ LEVEL.error, 'e' ], [ LEVEL.warn, 'w' ], [ LEVEL.info, 'i' ], [ LEVEL.debug, 'v' ], [ LEVEL.debug, 'd' ], [ LEVEL.trace, 's' ],
    ]);
  });

  it('leaves out the lines below the logger\'s level', (): void => {
    const { pino: target, lines } = capturing('warn');
    new PinoLogger(target, new LogRedactor()).info('not written').debug('nor this').warn('written');
    expect(lines.map((line): unknown => line.msg)).toEqual([ 'written' ]);
  });

  it('removes secrets from every message', (): void => {
    const { pino: target, lines } = capturing('info');
    new PinoLogger(target, new LogRedactor([ '/webhooks/' ])).info('POST /webhooks/s3cr3tSegment with Authorization: Bearer abc.def');
    expect(lines[0].msg).not.toContain('s3cr3tSegment');
    expect(lines[0].msg).not.toContain('abc.def');
    expect(lines[0].msg).toContain('/webhooks/[redacted]');
  });

  it('writes info at debug when quiet, and nothing of it above debug', (): void => {
    const debug = capturing('debug');
    new PinoLogger(debug.pino, new LogRedactor(), true).info('request').warn('odd');
    expect(debug.lines.map((line): [unknown, unknown] => [ line.level, line.msg ])).toEqual([ [ LEVEL.debug, 'request' ], [ LEVEL.warn, 'odd' ] ]);
    const info = capturing('info');
    new PinoLogger(info.pino, new LogRedactor(), true).info('request');
    expect(info.lines).toEqual([]);
  });

  it('asks the redactor nothing for a line its level leaves out', (): void => {
    const redactor = new LogRedactor();
    const redact = jest.spyOn(redactor, 'redact');
    new PinoLogger(capturing('error').pino, redactor).info('skipped');
    expect(redact).not.toHaveBeenCalled();
  });
});
