import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSinkOptions {
  /** The address it listens on; another than 127.0.0.1 plays a mail server elsewhere. */
  host?: string;
  /** Accepts AUTH in plain text (as a server without STARTTLS would) and records the logins. */
  auth?: boolean;
}

/**
 * A real SMTP server on 127.0.0.1 for the tests (backend and browser suites alike): it receives what nodemailer sends and
 * parses it with mailparser. STARTTLS is off: smtp-server's built-in certificate has
 * expired, and a client upgrading to it would fail.
 */
export class SmtpSink {
  readonly mails: ParsedMail[] = [];
  /** Logins it was sent (with `auth`): what a server without STARTTLS reads in plain text. */
  readonly logins: { username: string; password: string }[] = [];
  /** Connections it accepted, including those the client left before sending anything. */
  connections = 0;
  private readonly host: string;
  private readonly auth: boolean;
  /** Transactions answered "451 try again later" before the next one is accepted. */
  rejectNext = 0;
  rejected = 0;
  private server: SMTPServer | null = null;
  private port = 0;

  constructor(options: SmtpSinkOptions = {}) {
    this.host = options.host ?? '127.0.0.1';
    this.auth = options.auth ?? false;
  }

  /** Listens on `port` (0: any free one); a stopped sink can start again on its old port. */
  async start(port = this.port): Promise<this> {
    this.server = new SMTPServer({
      disabledCommands: this.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: true,
      allowInsecureAuth: this.auth,
      logger: false,
      onConnect: (_session, callback) => {
        this.connections += 1;
        callback();
      },
      onAuth: (auth, _session, callback) => {
        this.logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
        callback(null, { user: auth.username });
      },
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
    await new Promise<void>((resolve) => this.server!.listen(port, this.host, resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}`;
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
