import type { Transporter } from 'nodemailer';
import { createTransport } from 'nodemailer';
import { serviceUnavailable } from '../../util/HttpErrors';
import { messageOf } from '../../util/Errors';

/** One message to one address. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends the server's mail (email confirmations, password resets) over SMTP (`--smtp-url`, e.g.
 * `smtps://user:password@mail.example.org:465`, from `--smtp-from`). Without an SMTP URL it is off:
 * `enabled` is false and nothing is ever sent. The SMTP server is the operator's, not named by any
 * request, so it is reached directly (no outbound guard).
 */
export class Mailer {
  private transport?: Transporter;

  /**
   * @param smtpUrl - smtp:// or smtps:// URL of the server that takes the mail; empty: no mail.
   * @param from - The From address; empty: `fedpod@<the base URL's host>`.
   * @param baseUrl - Public base URL.
   */
  public constructor(
    private readonly smtpUrl: string,
    private readonly from: string,
    private readonly baseUrl: string,
  ) {}

  public get enabled(): boolean {
    return this.smtpUrl.length > 0;
  }

  /** Sends a message; a 503 when the SMTP server does not take it. */
  public async send(mail: Mail): Promise<void> {
    if (!this.enabled) {
      throw new Error('No SMTP server is configured (--smtp-url).');
    }
    this.transport ??= createTransport(this.smtpUrl);
    try {
      await this.transport.sendMail({ from: this.from || `fedpod@${new URL(this.baseUrl).hostname}`, ...mail });
    } catch (error: unknown) {
      throw serviceUnavailable(`The mail could not be sent: ${messageOf(error)}`, 'mail_unavailable');
    }
  }
}
