/** An SMTP receiver for tests that send mail (`--smtp-url`), from smtp-server. */
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP receiver on loopback that keeps every message (no TLS, no auth: a test double of a mail relay). */
export async function startSmtp(port: number, received: Received[]): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: [ 'STARTTLS' ],
    logger: false,
    onData(stream, session, callback): void {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer): void => {
        chunks.push(chunk);
      });
      stream.on('end', (): void => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt): string => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve): void => {
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

/** A mail's text with quoted-printable soft breaks and escapes undone. */
export function mailText(raw: string): string {
  return raw.replace(/=\r?\n/gu, '').replace(/=([0-9A-F]{2})/gu, (_, hex: string): string => String.fromCharCode(Number.parseInt(hex, 16)));
}
