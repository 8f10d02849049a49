import { BadRequestHttpError, BasicRepresentation, INTERNAL_ERROR, readableToString } from '@solid/community-server';
import { JsonErrorConverter } from '../../../src/handlers/JsonErrorConverter';

describe('JsonErrorConverter', () => {
  const converter = new JsonErrorConverter();

  async function convert(error: Error): Promise<unknown> {
    const converted = await converter.handleSafe({ identifier: { path: 'http://pod.example/x' },
      representation: new BasicRepresentation([ error ], INTERNAL_ERROR, false), preferences: { type: { 'application/json': 1 }}});
    expect(converted.metadata.contentType).toBe('application/json');
    return JSON.parse(await readableToString(converted.data));
  }

  it('writes CSS\'s errors in the one shape, { error, message }', async() => {
    expect(await convert(new BadRequestHttpError('No such thing.'))).toEqual({ error: 'bad_request', message: 'No such thing.' });
  });

  it('keeps the details of an unexpected error out of the answer', async() => {
    expect(await convert(new Error('secret path /var/lib/x'))).toEqual({ error: 'internal_error',
      message: 'The server could not complete the request.' });
  });
});
