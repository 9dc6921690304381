import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { escapeHtml as esc, formatDateTime, SITE_TIME_ZONE } from '@awhh/machines';
import { CatalogService } from '../catalog/catalog.service.js';
import { AppConfig } from '../config/config.js';
import { type Job, JobHandlers } from '../jobs/job-handlers.js';
import { JobRepository } from '../jobs/jobs.port.js';
import {
  mailButton,
  mailParagraph,
  mailSection,
  type RenderedMail,
  renderMailLayout,
  renderMailText,
} from '../mail/mail-layout.js';
import { MailPort } from '../mail/mail.port.js';
import { absoluteUrl } from '../site/html-head.js';
import { Store } from '../store/store.port.js';
import { TicketSigner } from '../tickets/ticket-signer.js';
import { ReminderRepository, type ReminderTicket } from './reminders.port.js';

/** The recurring sweep that finds what is due, and the job that sends one mail. */
export const REMINDER_SWEEP_JOB = 'reminders.sweep';
export const REMINDER_MAIL_JOB = 'reminders.mail';

/** How often the sweep looks; a reminder goes out at most this late. */
export const REMINDER_SWEEP_INTERVAL_MS = 5 * 60_000;
/** rules "Reminders": a ticket bought less than this before a mail's time gets none. */
export const REMINDER_MIN_BOUGHT_BEFORE_MS = 2 * 3_600_000;
/** The thank-you goes out from 9:00 (Berlin) the morning after, until this much later. */
const THANKS_HOUR = 9;
const THANKS_WINDOW_MS = 12 * 3_600_000;
const HOUR_MS = 3_600_000;

export type ReminderKind = 'reminder' | 'thanks';

interface ReminderMailJob {
  kind: ReminderKind;
  eventId: number;
  /** sha256 of the address (never the address itself): which of the tickets' holders. */
  address: string;
  ticketIds: string[];
}

const addressHash = (email: string) =>
  createHash('sha256').update(email).digest('base64url').slice(0, 32);

/** The zone's offset from UTC at `time`, in ms. */
function zoneOffset(time: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: SITE_TIME_ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(time))
      .map((p) => [p.type, Number(p.value)]),
  );
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!);
  return asUtc - Math.floor(time / 60_000) * 60_000;
}

/** 9:00 in Berlin on the day after the Berlin day of `start`. */
export function thanksTime(start: number): number {
  const local = new Date(start + zoneOffset(start));
  const guess = Date.UTC(
    local.getUTCFullYear(),
    local.getUTCMonth(),
    local.getUTCDate() + 1,
    THANKS_HOUR,
  );
  return guess - zoneOffset(guess);
}

/** When each kind is due for an event starting at `start`. */
export function reminderTimes(start: number, hoursBefore: number) {
  const thanks = thanksTime(start);
  return {
    reminder: { from: start - hoursBefore * HOUR_MS, until: start },
    thanks: { from: thanks, until: thanks + THANKS_WINDOW_MS },
  } satisfies Record<ReminderKind, { from: number; until: number }>;
}

/** A map of the venue (OpenStreetMap's search: the shop names venues, not coordinates). */
export function venueMapUrl(venue: string): string {
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(`${venue}, Hamburg`)}`;
}

/**
 * rules "Reminders": REMINDER_HOURS_BEFORE before the start every valid ticket's holder gets
 * a reminder, the morning after a thank-you with the next evening's link. A recurring sweep
 * (every 5 minutes, one process per deployment) enqueues one job per kind, event and
 * address; the jobs table's unique name + key makes that exactly once across restarts and
 * processes. The mail job looks again before it sends: a ticket revoked or passed on, an
 * address unsubscribed, or an event switched off (product meta `awhh_reminders` = `no`)
 * meanwhile gets nothing.
 */
@Injectable()
export class TicketReminders implements OnModuleInit {
  private readonly logger = new Logger('Reminders');

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(ReminderRepository) private readonly reminders: ReminderRepository,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(TicketSigner) private readonly signer: TicketSigner,
    @Inject(Store) private readonly store: Store,
    @Inject(MailPort) private readonly mail: MailPort,
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
  ) {}

  private get hoursBefore(): number {
    return this.config.reminderHoursBefore ?? 24;
  }

  onModuleInit(): void {
    this.handlers.recurring(REMINDER_SWEEP_JOB, {
      run: async (now) => {
        await this.sweep(now);
      },
      nextRunAt: (now) => now + REMINDER_SWEEP_INTERVAL_MS,
    });
    this.handlers.register<ReminderMailJob>(REMINDER_MAIL_JOB, {
      run: (job) => this.send(job),
      describe: (p) => ({ kind: p.kind, eventId: p.eventId, tickets: p.ticketIds.length }),
    });
  }

  /** Enqueues every mail due at `now`; returns how many jobs it asked for. */
  async sweep(now: number): Promise<number> {
    // Events that started up to two days ago still owe their thank-you.
    const tickets = await this.reminders.validTicketsFrom(
      new Date(now - 2 * 86_400_000).toISOString(),
    );
    if (tickets.length === 0) return 0;
    const off = await this.eventsWithoutReminders();
    const unsubscribed = await this.reminders.unsubscribed([
      ...new Set(tickets.map((t) => t.email)),
    ]);
    const due = new Map<string, ReminderMailJob & { orderId: string }>();
    for (const ticket of tickets) {
      if (off.has(ticket.eventId) || unsubscribed.has(ticket.email)) continue;
      const start = Date.parse(ticket.startsAt);
      if (Number.isNaN(start)) continue;
      const times = reminderTimes(start, this.hoursBefore);
      for (const kind of ['reminder', 'thanks'] as const) {
        const { from, until } = times[kind];
        if (now < from || now >= until) continue;
        // Bought shortly before (or after) the mail's time: the ticket mail said it all.
        if (ticket.issuedAt > from - REMINDER_MIN_BOUGHT_BEFORE_MS) continue;
        const address = addressHash(ticket.email);
        const key = `${kind}:${ticket.eventId}:${address}`;
        const job = due.get(key);
        if (job) job.ticketIds.push(ticket.id);
        else
          due.set(key, {
            kind,
            eventId: ticket.eventId,
            address,
            ticketIds: [ticket.id],
            orderId: ticket.orderId,
          });
      }
    }
    if (due.size === 0) return 0;
    await this.store.write(async (tx) => {
      const jobs = tx.get(JobRepository);
      for (const [key, { orderId, ...payload }] of due) {
        // One per kind, event and address, however often the sweep runs (unique name + key).
        await jobs.enqueue({ name: REMINDER_MAIL_JOB, payload, key, subject: orderId }, now);
      }
    });
    return due.size;
  }

  private async send(job: Job<ReminderMailJob>): Promise<void> {
    const { kind, eventId, address } = job.payload;
    // Revoked and passed-on tickets drop out; the address is the one the sweep chose.
    const tickets = (await this.reminders.validTickets(job.payload.ticketIds)).filter(
      (t) => addressHash(t.email) === address,
    );
    const first = tickets[0];
    if (!first) return;
    if ((await this.reminders.unsubscribed([first.email])).size > 0) return;
    if ((await this.eventsWithoutReminders()).has(eventId)) return;
    const token = await this.reminders.tokenFor(
      first.email,
      randomBytes(24).toString('base64url'),
      Date.now(),
    );
    const links = await Promise.all(tickets.map((t) => this.ticketLink(t)));
    const unsubscribeUrl = absoluteUrl(
      this.config.publicUrl,
      `/api/reminders/unsubscribe/${token}`,
    );
    const rendered =
      kind === 'reminder'
        ? renderReminderMail(first, links, unsubscribeUrl, this.config.publicUrl)
        : renderThanksMail(first, unsubscribeUrl, this.config.publicUrl);
    await this.mail.send({
      id: `reminder-${kind}-${eventId}-${address}`,
      to: first.email,
      ...rendered,
      attachments: [],
    });
    this.logger.log({ msg: `${kind} mail sent`, eventId, tickets: tickets.length });
  }

  private async ticketLink(t: ReminderTicket): Promise<TicketLink> {
    const token = await this.signer.sign({
      t: t.id,
      e: t.eventId,
      s: t.seat,
      ...(t.generation > 0 ? { g: t.generation } : {}),
    });
    const base = this.config.publicUrl;
    const api = `/api/tickets/${encodeURIComponent(token)}`;
    // rules "Wallet passes": the same links as the ticket mail, each where it is set up.
    const { apple, google } = this.config.wallet ?? { apple: null, google: null };
    return {
      tier: t.tier,
      page: absoluteUrl(base, `/tickets/${token}`),
      pdf: absoluteUrl(base, `${api}/pdf`),
      apple: apple ? absoluteUrl(base, `${api}/wallet/apple`) : null,
      google: google ? absoluteUrl(base, `${api}/wallet/google/save`) : null,
    };
  }

  /** Events whose product says `awhh_reminders` = `no`. */
  private async eventsWithoutReminders(): Promise<Set<number>> {
    const products = await this.catalog.products();
    return new Set(
      products
        .filter((p) =>
          (p.meta_data ?? []).some(
            (m) =>
              m.key === 'awhh_reminders' &&
              String(m.value ?? '')
                .trim()
                .toLowerCase() === 'no',
          ),
        )
        .map((p) => p.id),
    );
  }
}

interface TicketLink {
  tier: string | null;
  page: string;
  pdf: string;
  apple: string | null;
  google: string | null;
}

const walletLinks = (t: TicketLink) =>
  [
    t.apple ? (['Zu Apple Wallet hinzufügen', t.apple] as const) : null,
    t.google ? (['Zu Google Wallet hinzufügen', t.google] as const) : null,
  ].filter((link) => link !== null);

const footnote = (url: string) =>
  `Du bekommst diese Nachricht, weil du ein Ticket hast. <a href="${esc(url)}" style="color:inherit;">Keine Erinnerungen mehr</a>`;

export function renderReminderMail(
  event: ReminderTicket,
  tickets: readonly TicketLink[],
  unsubscribeUrl: string,
  publicUrl: string,
): RenderedMail {
  const when = formatDateTime(event.startsAt) ?? '';
  const subject = `Erinnerung: ${event.eventName} am ${when}`;
  const hello = event.holder ? `Hallo ${event.holder},` : 'Hallo,';
  const venue = event.venue;
  const map = venue ? venueMapUrl(venue) : null;
  const several = tickets.length > 1;
  const ticketHtml = tickets
    .map((t, i) =>
      [
        mailButton(several ? `Ticket ${i + 1} öffnen` : 'Ticket öffnen', t.page),
        mailParagraph(
          [
            ...(t.tier ? [esc(t.tier)] : []),
            ...[['Als PDF', t.pdf] as const, ...walletLinks(t)].map(
              ([label, url]) => `<a href="${esc(url)}" style="color:inherit;">${esc(label)}</a>`,
            ),
          ].join(' · '),
          'font-size:14px;',
        ),
      ].join('\n'),
    )
    .join('\n');
  const html = renderMailLayout({
    title: subject,
    topic: 'Erinnerung',
    bodyHtml: [
      mailParagraph(esc(hello)),
      mailParagraph(
        `bald ist es so weit: <strong>${esc(event.eventName)}</strong> beginnt am ${esc(when)}.`,
      ),
      venue
        ? mailParagraph(
            `Ort: ${esc(venue)} · <a href="${esc(map!)}" style="color:inherit;">Karte (OpenStreetMap)</a>`,
          )
        : '',
      ticketHtml,
    ].join('\n'),
    sectionsHtml: mailSection(
      mailParagraph(
        'Du kannst nicht kommen? Auf der Ticketseite kannst du dein Ticket weitergeben.',
        'margin:0;font-size:14px;',
      ),
    ),
    publicUrl,
    footnoteHtml: footnote(unsubscribeUrl),
  });
  const text = renderMailText(
    [
      subject,
      hello,
      `bald ist es so weit: ${event.eventName} beginnt am ${when}.`,
      ...(venue ? [`Ort: ${venue}\nKarte: ${map}`] : []),
      ...tickets.map(
        (t, i) =>
          `${several ? `Ticket ${i + 1}` : 'Dein Ticket'}${t.tier ? ` (${t.tier})` : ''}: ${t.page}\nAls PDF: ${t.pdf}${walletLinks(
            t,
          )
            .map(([label, url]) => `\n${label}: ${url}`)
            .join('')}`,
      ),
      'Du kannst nicht kommen? Auf der Ticketseite kannst du dein Ticket weitergeben.',
      `Keine Erinnerungen mehr: ${unsubscribeUrl}`,
    ],
    publicUrl,
  );
  return { subject, html, text };
}

export function renderThanksMail(
  event: ReminderTicket,
  unsubscribeUrl: string,
  publicUrl: string,
): RenderedMail {
  const subject = `Danke für den Abend – ${event.eventName}`;
  const next = absoluteUrl(publicUrl, '/next');
  const hello = event.holder ? `Hallo ${event.holder},` : 'Hallo,';
  const html = renderMailLayout({
    title: subject,
    topic: 'Danke',
    bodyHtml: [
      mailParagraph(esc(hello)),
      mailParagraph(
        `schön, dass du bei <strong>${esc(event.eventName)}</strong> dabei warst. Wir hoffen, du hattest gute Gespräche und einen tollen Abend.`,
      ),
      mailParagraph('Der nächste Abend ist schon geplant:'),
      mailButton('Zum nächsten After Work', next),
    ].join('\n'),
    publicUrl,
    footnoteHtml: footnote(unsubscribeUrl),
  });
  const text = renderMailText(
    [
      subject,
      hello,
      `schön, dass du bei ${event.eventName} dabei warst. Wir hoffen, du hattest gute Gespräche und einen tollen Abend.`,
      `Der nächste Abend: ${next}`,
      `Keine Erinnerungen mehr: ${unsubscribeUrl}`,
    ],
    publicUrl,
  );
  return { subject, html, text };
}
