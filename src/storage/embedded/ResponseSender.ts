import type { ServerResponse } from 'node:http';
import { FedpodHttpError } from '../../util/HttpErrors';
import { InvalidOperationError } from './InvalidOperationError';
import { StoreUnavailableError } from './StoreUnavailableError';

/** Writes responses, and maps thrown errors to statuses in one place. */
export class ResponseSender {
  public constructor(
    private readonly realm: string,
    private readonly warn: (message: string) => void,
  ) {}

  public send(response: ServerResponse, status: number, contentType: string, body: string): void {
    response.writeHead(status, {
      'content-type': contentType,
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  }

  public json(response: ServerResponse, status: number, value: unknown): void {
    this.send(response, status, 'application/json; charset=utf-8', `${JSON.stringify(value, null, 2)}\n`);
  }

  public text(response: ServerResponse, status: number, message: string, headers: Readonly<Record<string, string>> = {}): void {
    const body = `${message}\n`;
    response.writeHead(status, {
      ...headers,
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  }

  public empty(response: ServerResponse, status: number): void {
    response.writeHead(status);
    response.end();
  }

  public unauthorized(response: ServerResponse): void {
    this.text(response, 401, 'Unauthorized', { 'www-authenticate': `Basic realm="${this.realm}"` });
  }

  public error(response: ServerResponse, error: unknown): void {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (error instanceof FedpodHttpError && error.statusCode === 401) {
      this.unauthorized(response);
      return;
    }
    const answer = this.errorAnswer(error);
    this.text(response, answer.status, answer.message, answer.headers);
  }

  /** The status and text that answer a thrown error (logged when it is a fault of the store). */
  public errorAnswer(error: unknown): { status: number; message: string; headers?: Readonly<Record<string, string>> } {
    if (error instanceof FedpodHttpError) {
      return { status: error.statusCode, message: `Error ${error.statusCode}: ${error.message}`, headers: error.headers };
    }
    if (error instanceof InvalidOperationError) {
      return { status: 400, message: `Error 400: ${error.message}` };
    }
    if (error instanceof StoreUnavailableError) {
      return { status: 503, message: `Error 503: ${error.message}` };
    }
    this.warn(`Internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return { status: 500, message: 'Error 500: internal error' };
  }
}
