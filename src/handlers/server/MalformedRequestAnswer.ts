import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** What Node's HTTP parser reports of a request it refuses (llhttp's code and reason). */
type ParserError = NodeJS.ErrnoException & { reason?: string };

/** The status and error code for a refusal of Node's parser, by its code. */
function refusalOf(error: ParserError): { status: number; code: string; message: string } {
  switch (error.code) {
    case 'HPE_INVALID_METHOD':
      // A 4xx, not 501: the client sent what no HTTP server here takes (Fedpod's bad input is a 4xx).
      return { status: 400, code: 'unknown_method', message: 'The server does not know the method of this request.' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'header_fields_too_large', message: 'The request\'s header fields are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', message: 'The request was not received in time.' };
    default:
      return { status: 400, code: 'malformed_request', message: `The request is not valid HTTP/1.1: ${error.reason ?? error.message}.` };
  }
}

/**
 * Answers the requests Node's HTTP parser refuses before any handler sees them (an unknown method, a
 * malformed request line or header, header fields over the limit) in the one JSON error shape, where
 * Node would write a bare `400 Bad Request` with no body. The connection is closed after it: what
 * follows the refused bytes cannot be framed.
 */
export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (error: ParserError, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, code, message } = refusalOf(error);
    const body = JSON.stringify({ error: code, message });
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
}
