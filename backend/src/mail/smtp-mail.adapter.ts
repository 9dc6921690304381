import { isIPv4 } from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { MailPort, type OutgoingMail } from './mail.port.js';

/** 127.0.0.0/8, ::1 and localhost: the mail never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  return isIPv4(host) && host.startsWith('127.');
}

/**
 * Nodemailer's options from SMTP_URL (parseConfig checked it). smtps:// is TLS from the
 * start. smtp:// must upgrade with STARTTLS before the password or a mail is sent
 * (`requireTLS`: a server or a man in the middle that offers no STARTTLS gets neither),
 * except to a server on this machine, where STARTTLS is used when offered, and when the URL
 * says `?tls=off`: the one explicit way to send in plain text, for a relay on a private
 * network. The URL is parsed here rather than by nodemailer, whose URL parameters would
 * override these options.
 */
export function smtpTransportOptions(smtpUrl: string): SMTPTransport.Options {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const plain = url.searchParams.get('tls') === 'off';
  const options: SMTPTransport.Options = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(secure ? {} : plain ? { ignoreTLS: true } : { requireTLS: !isLoopbackHost(url.hostname) }),
  };
  if (url.username || url.password) {
    options.auth = {
      user: decodeURIComponent(url.username),
      pass: decodeURIComponent(url.password),
    };
  }
  return options;
}

/** Nodemailer over SMTP_URL (`smtpTransportOptions`: STARTTLS required unless said otherwise). */
export class SmtpMailAdapter extends MailPort {
  readonly name = 'smtp' as const;
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly messageIdHost: string,
  ) {
    super();
    this.transport = nodemailer.createTransport({
      ...smtpTransportOptions(smtpUrl),
      // A mail is retried by the outbox; a hanging server must not hold a job for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      messageId: `<${mail.id}@${this.messageIdHost}>`,
      attachments: mail.attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
      })),
    });
  }

  close(): void {
    this.transport.close();
  }
}
