/**
 * A raw HTTP/1.1 client over a TCP socket: the request line, headers and body go out byte for byte
 * as the case gives them (node's http client would refuse or re-encode the hostile ones: spaces and
 * control characters in paths, odd header values, bare CR/LF...). One request per connection.
 */
import * as net from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target exactly as sent (no encoding is applied). */
  path: string;
  /** Sent in this order after Host; a `host` entry replaces the default Host header. */
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

export interface RawResponse {
  status: number;
  /** Lowercase names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

const CHUNK = 64 * 1024;

/** Ends the message of a connection closed before the whole request was written. */
export const UNSENT = 'before the whole request was sent';

function encodeRequest(host: string, request: RawRequest): Buffer[] {
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  const headers: [string, string][] = [];
  const given = Object.entries(request.headers ?? {});
  if (!given.some(([ name ]) => name.toLowerCase() === 'host')) {
    headers.push([ 'Host', host ]);
  }
  headers.push(...given);
  // No `Connection: close`: a server that answers a body early (413, 415...) and then closes while
  // body bytes still arrive makes its kernel send a reset, which can discard the answer unread.
  // Answers are framed (Content-Length or chunked), and the socket is closed once one is complete.
  const declaresLength = given.some(([ name ]) => [ 'content-length', 'transfer-encoding' ].includes(name.toLowerCase()));
  if (body !== undefined && !declaresLength) {
    headers.push(request.chunked === true ? [ 'Transfer-Encoding', 'chunked' ] : [ 'Content-Length', String(body.length) ]);
  }
  const head = Buffer.from(`${request.method} ${request.path} HTTP/1.1\r\n${headers.map(([ n, v ]) => `${n}: ${v}\r\n`).join('')}\r\n`, 'latin1');
  const parts: Buffer[] = [ head ];
  if (body !== undefined) {
    if (request.chunked === true) {
      for (let offset = 0; offset < body.length; offset += CHUNK) {
        const piece = body.subarray(offset, offset + CHUNK);
        parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`, 'latin1'), piece, Buffer.from('\r\n', 'latin1'));
      }
      parts.push(Buffer.from('0\r\n\r\n', 'latin1'));
    } else {
      // Same bytes, in pieces the sender can stop between.
      for (let offset = 0; offset < body.length; offset += CHUNK) {
        parts.push(body.subarray(offset, offset + CHUNK));
      }
    }
  }
  return parts;
}

/** The response once complete, `undefined` while more bytes are needed. */
function tryParse(data: Buffer, method: string, closed: boolean): RawResponse | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) {
    return undefined;
  }
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/u.exec(lines[0]);
  if (!match) {
    throw new Error(`not an HTTP answer: ${JSON.stringify(lines[0].slice(0, 80))}`);
  }
  const status = Number(match[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
  }
  const rest = data.subarray(end + 4);
  if (status === 100) {
    return tryParse(rest, method, closed);
  }
  if (method === 'HEAD' || status === 204 || status === 304) {
    return { status, headers, body: Buffer.alloc(0) };
  }
  if (/chunked/iu.test(headers['transfer-encoding'] ?? '')) {
    const body: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n', at);
      if (lineEnd < 0) {
        return undefined;
      }
      const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
      if (!Number.isFinite(size)) {
        throw new Error('bad chunk size in the answer');
      }
      if (size === 0) {
        return { status, headers, body: Buffer.concat(body) };
      }
      if (rest.length < lineEnd + 2 + size + 2) {
        return undefined;
      }
      body.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    return rest.length >= length ? { status, headers, body: rest.subarray(0, length) } : undefined;
  }
  return closed ? { status, headers, body: rest } : undefined;
}

/**
 * Sends one request to 127.0.0.1:port and resolves with the answer, or rejects with a reason
 * ("no answer" when the server closed the connection without one, "hang" on the timeout).
 * The server may answer (e.g. 413) and close before the whole body is written: that is an answer.
 */
export function sendRaw(port: number, host: string, request: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const received: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | undefined, response?: RawResponse): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) {
        reject(error);
      } else {
        resolve(response!);
      }
    };
    const attempt = (closed: boolean): void => {
      try {
        const response = tryParse(Buffer.concat(received), request.method, closed);
        if (response) {
          finish(undefined, response);
        } else if (closed) {
          finish(new Error(received.length === 0 ?
            `no answer: the connection closed${parts.length > 0 ? ` ${UNSENT}` : ''}` : 'incomplete answer'));
        }
      } catch (error: unknown) {
        finish(error as Error);
      }
    };
    const parts = encodeRequest(host, request);
    const timer = setTimeout(() => finish(new Error(`hang: no complete answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      attempt(false);
    });
    socket.on('end', () => attempt(true));
    socket.on('close', () => attempt(true));
    // EPIPE / ECONNRESET while writing a body the server refused early: judge by what arrived.
    socket.on('error', () => attempt(true));
    socket.on('connect', () => {
      // Part by part, and no more once the server has answered: a server that refuses a body early
      // closes the connection, and body bytes still arriving then make its kernel send a reset,
      // which can discard the answer before it is read.
      const writeNext = (): void => {
        while (!settled && received.length === 0 && parts.length > 0) {
          if (!socket.write(parts.shift()!)) {
            socket.once('drain', writeNext);
            return;
          }
        }
      };
      writeNext();
    });
  });
}
