import nodemailer, { type Transporter } from 'nodemailer';
import { MailPort, type OutgoingMail } from './mail.port.js';

/** Nodemailer over SMTP_URL (smtp:// with STARTTLS when offered, smtps:// for implicit TLS). */
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
      url: smtpUrl,
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
