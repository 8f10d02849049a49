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
    } else if (error instanceof FedpodHttpError) {
      this.text(response, error.statusCode, `Error ${error.statusCode}: ${error.message}`, error.headers);
    } else if (error instanceof InvalidOperationError) {
      this.text(response, 400, `Error 400: ${error.message}`);
    } else if (error instanceof StoreUnavailableError) {
      this.text(response, 503, `Error 503: ${error.message}`);
    } else {
      this.warn(`Internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      this.text(response, 500, 'Error 500: internal error');
    }
  }
}
