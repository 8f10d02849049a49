import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';
import { InvalidOperationError } from '../../../../src/storage/embedded/InvalidOperationError';
import { ResponseSender } from '../../../../src/storage/embedded/ResponseSender';
import { StoreUnavailableError } from '../../../../src/storage/embedded/StoreUnavailableError';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('ResponseSender', (): void => {
  let warnings: string[];
  let sender: ResponseSender;
  /** What the server does with its response, set by each test. */
  let respond: (response: http.ServerResponse) => void;
  let server: http.Server;
  let url: string;

  beforeAll(async(): Promise<void> => {
    server = http.createServer((request, response): void => {
      request.resume();
      respond(response);
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async(): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve): void => {
      server.close((): void => resolve());
    });
  });

  beforeEach((): void => {
    warnings = [];
    sender = new ResponseSender('fedpod-store', (message): void => {
      warnings.push(message);
    });
  });

  async function get(): Promise<Answer> {
    const response = await fetch(url);
    const headers: http.IncomingHttpHeaders = {};
    response.headers.forEach((value, name): void => {
      headers[name] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  }

  it('sends a body with its type and byte length', async(): Promise<void> => {
    respond = (response): void => sender.send(response, 200, 'text/turtle', '<a> <b> "é" .');
    const answer = await get();
    expect(answer).toMatchObject({ status: 200, body: '<a> <b> "é" .' });
    expect(answer.headers['content-type']).toBe('text/turtle');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength('<a> <b> "é" .')));
  });

  it('sends JSON, text with extra headers, and empty answers', async(): Promise<void> => {
    respond = (response): void => sender.json(response, 201, { datasets: [ 'ds' ]});
    const json = await get();
    expect(JSON.parse(json.body)).toEqual({ datasets: [ 'ds' ]});
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    respond = (response): void => sender.text(response, 409, 'taken', { 'x-reason': 'exists' });
    expect(await get()).toMatchObject({ status: 409, body: 'taken\n', headers: { 'x-reason': 'exists', 'content-type': 'text/plain; charset=utf-8' }});
    respond = (response): void => sender.empty(response, 204);
    expect(await get()).toMatchObject({ status: 204, body: '' });
  });

  it('asks for Basic credentials in its realm', async(): Promise<void> => {
    respond = (response): void => sender.unauthorized(response);
    expect(await get()).toMatchObject({ status: 401, body: 'Unauthorized\n', headers: { 'www-authenticate': 'Basic realm="fedpod-store"' }});
  });

  it.each([
    [ 'an HTTP error', new FedpodHttpError(413, 'payload_too_large', 'too big', { connection: 'close' }), 413, 'Error 413: too big\n' ],
    [ 'an HTTP error 401', new FedpodHttpError(401, 'unauthorized', 'who are you'), 401, 'Unauthorized\n' ],
    [ 'a refused operation', new InvalidOperationError('syntax error at line 1'), 400, 'Error 400: syntax error at line 1\n' ],
    [ 'an unavailable store', new StoreUnavailableError('closed'), 503, 'Error 503: closed\n' ],
  ])('answers %s with its status, warning of nothing', async(what, error, status, body): Promise<void> => {
    respond = (response): void => sender.error(response, error);
    const answer = await get();
    expect(answer).toMatchObject({ status, body });
    expect(warnings).toEqual([]);
  });

  it('answers anything else with a bare 500, the details in a warning only', async(): Promise<void> => {
    respond = (response): void => sender.error(response, new Error('secret internals'));
    const answer = await get();
    expect(answer).toMatchObject({ status: 500, body: 'Error 500: internal error\n' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Internal error: Error: secret internals');
    respond = (response): void => sender.error(response, 'a string');
    await get();
    expect(warnings[1]).toBe('Internal error: a string');
  });

  it('cuts the connection when the answer had begun', async(): Promise<void> => {
    respond = (response): void => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('partial');
      sender.error(response, new Error('failed midway'));
    };
    await expect(get()).rejects.toThrow();
    expect(warnings).toEqual([]);
  });
});
