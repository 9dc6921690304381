import { Controller, Get, Header, Inject, Param, Res } from '@nestjs/common';
import type { MailMessage, MailSummary, MailTestInfo } from '@awhh/machines';
import type { FastifyReply } from 'fastify';
import { apiError } from '../common/api-error.js';
import { MailboxRepository, type StoredMailSummary } from './mail.port.js';
import { TestMailbox } from './test-mailbox.js';

const MAILBOX_CLOSED_MESSAGE =
  'Das Testpostfach gibt es nur, solange Zahlungen und E-Mails im Testmodus laufen.';
const MAIL_NOT_FOUND_MESSAGE = 'Diese E-Mail gibt es im Testpostfach nicht.';

/** Newest mails shown on /mail-test. */
const MAILBOX_LIMIT = 50;

/** The embedded mailbox behind /mail-test ("Testpostfach", rules "E-mail"). */
@Controller('mail-test')
export class MailTestController {
  constructor(
    @Inject(TestMailbox) private readonly mailboxMode: TestMailbox,
    @Inject(MailboxRepository) private readonly mailbox: MailboxRepository,
  ) {}

  /**
   * What the test mailbox page shows besides the mails: the embedded door code for
   * /einlass (rules "Tickets and the door"), null when CHECKIN_CODE is set (a real code
   * is never shown on a public page). Only while the mailbox itself is open, which it never
   * is in production.
   */
  @Get()
  @Header('cache-control', 'no-store')
  async info(): Promise<MailTestInfo> {
    this.assertOpen();
    return { checkinCode: await this.mailboxMode.embeddedDoorCode() };
  }

  @Get('messages')
  @Header('cache-control', 'no-store')
  async list(): Promise<MailSummary[]> {
    this.assertOpen();
    return (await this.mailbox.list(MAILBOX_LIMIT)).map(summary);
  }

  @Get('messages/:id')
  @Header('cache-control', 'no-store')
  async message(@Param('id') id: string): Promise<MailMessage> {
    this.assertOpen();
    const mail = await this.mailbox.find(id);
    if (!mail) throw apiError(404, MAIL_NOT_FOUND_MESSAGE);
    return { ...summary(mail), from: mail.from, html: mail.html, text: mail.text };
  }

  @Get('messages/:id/attachments/:index')
  async attachment(
    @Param('id') id: string,
    @Param('index') index: string,
    @Res() reply: FastifyReply,
  ) {
    this.assertOpen();
    const position = /^\d{1,4}$/.test(index) ? Number(index) : -1;
    const file = position >= 0 ? await this.mailbox.attachment(id, position) : undefined;
    if (!file) throw apiError(404, MAIL_NOT_FOUND_MESSAGE);
    const inline = file.contentType.startsWith('application/pdf');
    return reply
      .header('content-type', file.contentType)
      .header(
        'content-disposition',
        `${inline ? 'inline' : 'attachment'}; filename="${file.filename.replace(/[^\w.-]+/g, '-')}"`,
      )
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .send(file.content);
  }

  private assertOpen(): void {
    if (!this.mailboxMode.enabled) throw apiError(404, MAILBOX_CLOSED_MESSAGE);
  }
}

function summary(mail: StoredMailSummary): MailSummary {
  return {
    id: mail.id,
    to: mail.to,
    subject: mail.subject,
    createdAt: new Date(mail.createdAt).toISOString(),
    attachments: mail.attachments,
  };
}
