import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 for the tests (backend and browser suites alike): it receives what nodemailer sends and
 * parses it with mailparser. STARTTLS is off: smtp-server's built-in certificate has
 * expired, and a client upgrading to it would fail.
 */
export class SmtpSink {
  readonly mails: ParsedMail[] = [];
  /** Transactions answered "451 try again later" before the next one is accepted. */
  rejectNext = 0;
  rejected = 0;
  private server: SMTPServer | null = null;
  private port = 0;

  /** Listens on `port` (0: any free one); a stopped sink can start again on its old port. */
  async start(port = this.port): Promise<this> {
    this.server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData: (stream, _session, callback) => {
        if (this.rejectNext > 0) {
          this.rejectNext -= 1;
          this.rejected += 1;
          stream.resume();
          stream.on('end', () =>
            callback(
              Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }),
            ),
          );
          return;
        }
        simpleParser(stream).then(
          (mail) => {
            this.mails.push(mail);
            callback();
          },
          (err: Error) => callback(err),
        );
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Mails received with this Message-ID (the ticket mail's is stable per order). */
  withMessageId(messageId: string): ParsedMail[] {
    return this.mails.filter((m) => m.messageId === messageId);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
