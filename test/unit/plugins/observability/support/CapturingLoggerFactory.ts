import type { DestinationStream } from 'pino';
import { PinoLoggerFactory } from '../../../../../src/plugins/observability/PinoLoggerFactory';

/** The pino logger factory with its lines kept in memory instead of written to stdout. */
export class CapturingLoggerFactory extends PinoLoggerFactory {
  public readonly lines: string[] = [];

  protected override createDestination(): DestinationStream {
    // Called from the base constructor; the closure reads `lines` only when a line is written.
    return { write: (line: string): void => {
      this.lines.push(line);
    } };
  }

  public parsed(): Record<string, unknown>[] {
    return this.lines.map((line): Record<string, unknown> => JSON.parse(line) as Record<string, unknown>);
  }
}
