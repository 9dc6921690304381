import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  escapeHtml as esc,
  formatDateTime,
  type OrganizerMail,
  organizerMailDraftSchema,
  type OrganizerMailPreview,
  organizerMailSendSchema,
} from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { parseBody } from '../common/validation.js';
import { AppConfig } from '../config/config.js';
import { CheckinRepository } from '../door/door.port.js';
import { type Job, JobHandlers } from '../jobs/job-handlers.js';
import { JobRepository } from '../jobs/jobs.port.js';
import {
  mailParagraph,
  mailSection,
  type RenderedMail,
  renderMailLayout,
  renderMailText,
} from '../mail/mail-layout.js';
import { MailPort } from '../mail/mail.port.js';
import { Store } from '../store/store.port.js';
import { OrganizerDashboard } from './organizer-dashboard.js';
import { OrganizerMailRepository, type StoredOrganizerMail } from './organizer-mail.port.js';
import { EVENT_NOT_FOUND_MESSAGE } from './organizer.controller.js';

/** The job that sends one recipient's copy (docs/decisions/0011-one-job-runner.md). */
export const ORGANIZER_MAIL_JOB = 'organizer.mail';

/**
 * The copies fall due this far apart (at most 5 a second): a ticket mail paid meanwhile is
 * due before most of them and goes out next, instead of after the whole sending
 * (docs/decisions/0019-the-door-code-in-the-store-and-one-job-per-address.md).
 */
export const ORGANIZER_MAIL_SPACING_MS = 200;

export const NO_RECIPIENTS_MESSAGE =
  'Für dieses Event gibt es keine gültigen Tickets mit E-Mail-Adresse: die Nachricht ginge an niemanden.';
export const NO_TEST_ADDRESS_MESSAGE =
  'Für „An mich testen“ fehlt eine Adresse: das WordPress-Konto hat keine, und ORGANIZER_EMAIL ist nicht gesetzt.';

/**
 * Where "an mich testen" goes when ORGANIZER_EMAIL is not set but mail is kept in the store
 * (the demo): the test mailbox shows it.
 */
export const DEMO_ORGANIZER_ADDRESS = 'veranstalter@example.org';

interface OrganizerMailJob {
  mailId: string;
  ticketId: string;
}

interface MailContent {
  subject: string;
  body: string;
  eventName: string;
  startsAt: string | null;
}

/** The organizer's text as paragraphs: blank lines part them, single line breaks stay. */
function paragraphsOf(body: string): string[] {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * rules "The organizer": the organizer's mail in the site's one mail layout. The text is
 * the organizer's own and goes through `escapeHtml` like every value (no markup of theirs
 * reaches a mail client); the event's name and date head it so a guest knows which evening
 * it is about.
 */
export function renderOrganizerMail(content: MailContent, publicUrl: string): RenderedMail {
  const paragraphs = paragraphsOf(content.body);
  const when = formatDateTime(content.startsAt);
  const eventLine = when ? `${content.eventName} · ${when}` : content.eventName;
  const html = renderMailLayout({
    title: content.subject,
    topic: 'Nachricht zu deinem Event',
    bodyHtml: paragraphs.map((p) => mailParagraph(esc(p).replace(/\n/g, '<br>'))).join('\n'),
    sectionsHtml: mailSection(
      mailParagraph(`<strong>${esc(eventLine)}</strong>`, 'margin:0;font-size:14px;'),
    ),
    publicUrl,
    footnoteHtml: `Du bekommst diese Nachricht, weil du ein Ticket für ${esc(content.eventName)} hast.`,
  });
  const text = renderMailText(
    [
      content.subject,
      ...paragraphs,
      eventLine,
      `Du bekommst diese Nachricht, weil du ein Ticket für ${content.eventName} hast.`,
    ],
    publicUrl,
  );
  return { subject: content.subject, html, text };
}

function view(mail: StoredOrganizerMail): OrganizerMail {
  return {
    id: mail.id,
    subject: mail.subject,
    createdAt: new Date(mail.createdAt).toISOString(),
    recipients: mail.recipients,
    sent: mail.sent,
  };
}

/**
 * rules "The organizer": a German mail to every valid holder of an event ("Der Ort hat
 * sich geändert", "Heute Abend"): a preview in the site's mail layout, a test to the
 * organizer, then one job per address through the job runner, written in one transaction
 * with the mail. A job sends its copy only while its recipient row is unsent and marks it
 * sent right after the mail server took it, so a restart mid-way (or a job run twice)
 * sends every address once; the copy's mail id is stable, so even a crash between the two
 * leaves a repeat the mailbox keeps once and a receiver can recognise.
 */
@Injectable()
export class OrganizerMails implements OnModuleInit {
  private readonly logger = new Logger('Organizer');

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(OrganizerDashboard) private readonly dashboard: OrganizerDashboard,
    @Inject(CheckinRepository) private readonly checkins: CheckinRepository,
    @Inject(OrganizerMailRepository) private readonly mails: OrganizerMailRepository,
    @Inject(Store) private readonly store: Store,
    @Inject(MailPort) private readonly mailPort: MailPort,
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
  ) {}

  onModuleInit(): void {
    this.handlers.register<OrganizerMailJob>(ORGANIZER_MAIL_JOB, {
      run: (job) => this.sendOne(job),
      describe: (payload) => ({ mailId: payload.mailId, ticketId: payload.ticketId }),
    });
  }

  async preview(eventId: number, body: unknown): Promise<OrganizerMailPreview> {
    const draft = parseBody(organizerMailDraftSchema, body);
    const event = await this.event(eventId);
    const rendered = renderOrganizerMail(
      { subject: draft.subject, body: draft.text, eventName: event.name, startsAt: event.startsAt },
      this.config.publicUrl,
    );
    return { ...rendered, recipients: (await this.recipients(eventId)).length };
  }

  /**
   * "An mich testen": the same mail to the signed-in account's address (WordPress), else
   * ORGANIZER_EMAIL; returns where it went.
   */
  async test(eventId: number, body: unknown, accountEmail: string | null): Promise<{ to: string }> {
    const draft = parseBody(organizerMailDraftSchema, body);
    const event = await this.event(eventId);
    const to =
      accountEmail ??
      this.config.organizerEmail ??
      (this.mailPort.name === 'store' ? DEMO_ORGANIZER_ADDRESS : null);
    if (!to) throw apiError(409, NO_TEST_ADDRESS_MESSAGE);
    const rendered = renderOrganizerMail(
      { subject: draft.subject, body: draft.text, eventName: event.name, startsAt: event.startsAt },
      this.config.publicUrl,
    );
    await this.mailPort.send({
      id: `organizer-test-${randomBytes(9).toString('base64url')}`,
      to,
      subject: `[Test] ${rendered.subject}`,
      html: rendered.html,
      text: rendered.text,
      attachments: [],
    });
    return { to };
  }

  /** Sends once per `sendId`: a repeat answers with the mail the first one made. */
  async send(eventId: number, body: unknown): Promise<{ mail: OrganizerMail; created: boolean }> {
    const { sendId, ...draft } = parseBody(organizerMailSendSchema, body);
    const earlier = await this.mails.findBySendId(sendId);
    if (earlier) return { mail: view(earlier), created: false };
    const event = await this.event(eventId);
    const recipients = await this.recipients(eventId);
    if (recipients.length === 0) throw apiError(409, NO_RECIPIENTS_MESSAGE);
    const id = `om_${randomBytes(12).toString('base64url')}`;
    const now = Date.now();
    const created = await this.store.write(async (tx) => {
      const mails = tx.get(OrganizerMailRepository);
      // Inside the write lock: two requests with one sendId make one mail.
      const again = await mails.findBySendId(sendId);
      if (again) return false;
      await mails.create(
        {
          id,
          sendId,
          eventId,
          eventName: event.name,
          startsAt: event.startsAt,
          subject: draft.subject,
          body: draft.text,
          ticketIds: recipients.map((r) => r.ticketId),
        },
        now,
      );
      const jobs = tx.get(JobRepository);
      for (const [index, { ticketId, orderId }] of recipients.entries()) {
        await jobs.enqueue(
          {
            name: ORGANIZER_MAIL_JOB,
            payload: { mailId: id, ticketId } satisfies OrganizerMailJob,
            key: `${id}:${ticketId}`,
            // Erasing the order's personal data clears a refusal that quotes the address.
            subject: orderId,
          },
          now + index * ORGANIZER_MAIL_SPACING_MS,
        );
      }
      return true;
    });
    const mail = await this.mails.findBySendId(sendId);
    this.logger.log({
      msg: 'organizer mail queued',
      mailId: mail!.id,
      eventId,
      recipients: mail!.recipients,
    });
    return { mail: view(mail!), created };
  }

  async list(eventId: number): Promise<{ mails: OrganizerMail[] }> {
    await this.event(eventId);
    return { mails: (await this.mails.forEvent(eventId)).map(view) };
  }

  private async event(eventId: number) {
    const event = await this.dashboard.event(eventId);
    if (!event) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
    return event;
  }

  /** One valid ticket per address (any case): a buyer of ten tickets gets one mail. */
  private async recipients(eventId: number): Promise<{ ticketId: string; orderId: string }[]> {
    const seen = new Set<string>();
    const found: { ticketId: string; orderId: string }[] = [];
    for (const ticket of await this.checkins.eventTickets(eventId)) {
      if (ticket.status !== 'valid' || !ticket.email) continue;
      const address = ticket.email.trim().toLowerCase();
      if (seen.has(address)) continue;
      seen.add(address);
      found.push({ ticketId: ticket.id, orderId: ticket.orderId });
    }
    return found;
  }

  private async sendOne(job: Job<OrganizerMailJob>): Promise<void> {
    const { mailId, ticketId } = job.payload;
    const [mail, recipient] = await Promise.all([
      this.mails.find(mailId),
      this.mails.recipient(mailId, ticketId),
    ]);
    if (!mail || !recipient || recipient.sentAt !== null) return;
    if (!recipient.email) {
      this.logger.log({ msg: 'organizer mail: no address any more', mailId, ticketId });
      return;
    }
    const rendered = renderOrganizerMail(mail, this.config.publicUrl);
    await this.mailPort.send({
      id: `organizer-${mailId}-${ticketId}`,
      to: recipient.email,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      attachments: [],
    });
    await this.mails.markSent(mailId, ticketId, Date.now());
  }
}
