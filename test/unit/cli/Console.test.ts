import { fail, say, UsageError, useLogFormat } from '../../../src/cli/Console';

describe('Console', (): void => {
  let written: string[];

  beforeEach((): void => {
    written = [];
    // Standard output and error are where the command speaks; they are what is checked.
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array): boolean => written.push(String(chunk)) > 0);
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array): boolean => written.push(String(chunk)) > 0);
  });

  afterEach((): void => {
    jest.restoreAllMocks();
    useLogFormat('json');
  });

  it('says a line as a JSON log line like the server\'s', (): void => {
    useLogFormat('json');
    say('listening', 'warn');
    expect(written).toHaveLength(1);
    expect(written[0].endsWith('\n')).toBe(true);
    expect(JSON.parse(written[0])).toEqual({ level: 'warn', time: expect.any(String), pid: process.pid, component: 'fedpod', msg: 'listening' });
  });

  it('says a readable line with --log-format pretty, and JSON for any other value', (): void => {
    useLogFormat('pretty');
    say('listening');
    useLogFormat('something');
    say('again');
    expect(written[0]).toBe('[fedpod] listening\n');
    expect(JSON.parse(written[1])).toMatchObject({ level: 'info', msg: 'again' });
  });

  describe('fail', (): void => {
    beforeEach((): void => {
      jest.spyOn(process, 'exit').mockImplementation((code?: string | number | null): never => {
        throw new Error(`exit ${String(code)}`);
      });
    });

    it('ends with code 1 and one line for a UsageError', (): void => {
      expect((): never => fail(new UsageError('--port must be a whole number'))).toThrow('exit 1');
      expect(written).toEqual([ '[fedpod] error: --port must be a whole number\n' ]);
    });

    it('writes the stack of any other error, and the value of what is no error', (): void => {
      const error = new Error('broken');
      expect((): never => fail(error)).toThrow('exit 1');
      expect(written[0]).toBe(`[fedpod] error: ${error.stack}\n`);
      expect((): never => fail('plain')).toThrow('exit 1');
      expect(written[1]).toBe('[fedpod] error: plain\n');
    });
  });

  it('names a UsageError as such', (): void => {
    const error = new UsageError('x');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('UsageError');
  });
});
