import type { IncomingMessage } from 'node:http';
import { checkSingleValuedHeaders } from '../../../../src/handlers/pipeline/SingleValuedHeaders';

/** A request as Node parses one: `headers` as Node folds them, `rawHeaders` as sent. */
function request(raw: [string, string][]): IncomingMessage {
  const headers: Record<string, string> = {};
  for (const [ name, value ] of raw) {
    const key = name.toLowerCase();
    // Node keeps the first Authorization and joins the others; enough for the check, which reads rawHeaders.
    headers[key] = headers[key] === undefined ? value : key === 'authorization' ? headers[key] : `${headers[key]}, ${value}`;
  }
  return { headers, rawHeaders: raw.flat() } as unknown as IncomingMessage;
}

const refused = expect.objectContaining({ statusCode: 400, errorCode: 'duplicate_header' });

describe('checkSingleValuedHeaders', (): void => {
  it('lets through one of each, and requests without credentials', (): void => {
    expect((): void => checkSingleValuedHeaders(request([[ 'Accept', 'a' ], [ 'Accept', 'b' ]]))).not.toThrow();
    expect((): void => checkSingleValuedHeaders(request([[ 'Authorization', 'DPoP x' ], [ 'DPoP', 'proof' ], [ 'Date', 'd' ]]))).not.toThrow();
    // Digest is a list; Date repeats harmlessly where nothing is signed.
    expect((): void => checkSingleValuedHeaders(request([[ 'Signature', 's' ], [ 'Digest', 'a' ], [ 'Digest', 'b' ]]))).not.toThrow();
    expect((): void => checkSingleValuedHeaders(request([[ 'Date', 'a' ], [ 'date', 'b' ]]))).not.toThrow();
  });

  it('refuses two Authorization or DPoP headers, whatever their case', (): void => {
    expect((): void => checkSingleValuedHeaders(request([[ 'Authorization', 'Bearer b' ], [ 'authorization', 'Bearer a' ]]))).toThrow(refused);
    expect((): void => checkSingleValuedHeaders(request([[ 'Authorization', 'DPoP t' ], [ 'DPoP', 'p1' ], [ 'dpop', 'p2' ]]))).toThrow(refused);
  });

  it('refuses two Dates on a signed request, and two draft-cavage Signatures', (): void => {
    expect((): void => checkSingleValuedHeaders(request([[ 'Signature', 's' ], [ 'Date', 'a' ], [ 'Date', 'b' ]]))).toThrow(refused);
    expect((): void => checkSingleValuedHeaders(request([[ 'Signature', 'keyId="a"' ], [ 'Signature', 'keyId="b"' ]]))).toThrow(refused);
  });

  it('lets RFC 9421 signatures span several lines (they are dictionaries)', (): void => {
    expect((): void => checkSingleValuedHeaders(request([
      [ 'Signature-Input', 'a=("@method")' ], [ 'Signature-Input', 'b=("@path")' ], [ 'Signature', 'a=:x:' ], [ 'Signature', 'b=:y:' ],
    ]))).not.toThrow();
  });
});
