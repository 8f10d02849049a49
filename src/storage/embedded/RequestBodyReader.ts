import type { IncomingMessage } from 'node:http';
import { FedpodHttpError } from '../../util/HttpErrors';

/** Reads a request body into memory, refusing (413) anything over the limit. */
export class RequestBodyReader {
  public constructor(private readonly maxBytes: number) {}

  public read(request: IncomingMessage): Promise<Buffer> {
    const declared = request.headers['content-length'];
    if (declared !== undefined && Number(declared) > this.maxBytes) {
      // Refuse before the client streams megabytes at us.
      return Promise.reject(this.tooLarge());
    }
    return new Promise<Buffer>((resolve, reject): void => {
      const chunks: Buffer[] = [];
      let received = 0;
      const onData = (chunk: Buffer): void => {
        received += chunk.length;
        if (received > this.maxBytes) {
          cleanup();
          reject(this.tooLarge());
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => {
        cleanup();
        resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const cleanup = (): void => {
        request.off('data', onData);
        request.off('end', onEnd);
        request.off('error', onError);
      };
      request.on('data', onData);
      request.on('end', onEnd);
      request.on('error', onError);
    });
  }

  public async readText(request: IncomingMessage): Promise<string> {
    return (await this.read(request)).toString('utf8');
  }

  private tooLarge(): FedpodHttpError {
    // The unread rest of the body makes the connection unusable for keep-alive.
    return new FedpodHttpError(413, 'payload_too_large', `Request body larger than ${this.maxBytes} bytes`, { connection: 'close' });
  }
}
