import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { escapeHtml } from '@awhh/machines';
import { AppConfig } from '../config/config.js';
import { type Job, JobHandlers } from '../jobs/job-handlers.js';
import { mailParagraph, renderMailLayout, renderMailText } from '../mail/mail-layout.js';
import { MailPort } from '../mail/mail.port.js';
import {
  ORGANIZER_NOTICE_JOB,
  type OrganizerNotice,
  type OrganizerNoticePayload,
  OrganizerNoticeRepository,
} from './organizer-notices.port.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Notices marked done are kept this long (the dashboard shows open ones only). */
const DONE_KEPT_MS = 90 * DAY_MS;
export const ORGANIZER_NOTICE_PURGE_JOB = 'organizer-notice-purge';

/** The German words of a notice, the same on the dashboard's API and in the mail. */
export function noticeWords(notice: OrganizerNotice): { title: string; paragraphs: string[] } {
  const order = notice.shopOrder
    ? `Die Bestellung ${notice.shopOrder} im Shop (${notice.orderId} auf der Website)`
    : `Die Bestellung ${notice.orderId}`;
  const items = notice.items.join(', ');
  switch (notice.kind) {
    case 'placesNotRestocked':
      return {
        title: 'Plätze nicht zurück im Bestand',
        paragraphs: [
          `${order} wurde im Shop storniert, erstattet oder gelöscht; ihre Tickets gelten nicht mehr.`,
          `Die Website bucht Plätze nicht selbst in den Bestand zurück (so eingestellt). Diese Plätze fehlen deshalb im Shop, bis du den Bestand dort erhöhst: ${items}.`,
        ],
      };
    case 'checkedInRevoked':
      return {
        title: 'Erstattet, obwohl schon eingecheckt',
        paragraphs: [
          `${order}: Im Shop wurde ein Ticket erstattet, dessen Gast schon eingelassen war: ${items}.`,
          'Das Ticket gilt nicht mehr. Prüfe, ob die Erstattung so gewollt war; sonst kläre sie mit dem Gast.',
        ],
      };
  }
}

/**
 * docs/ledger.md "Told to the organizer": each notice's mail to ORGANIZER_EMAIL, once (the
 * job's key is the notice), and the notices marked done forgotten after 90 days. Without
 * ORGANIZER_EMAIL the dashboard alone shows them; the log says so.
 */
@Injectable()
export class OrganizerNoticeJobs implements OnModuleInit {
  private readonly logger = new Logger('OrganizerNotices');

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(OrganizerNoticeRepository) private readonly notices: OrganizerNoticeRepository,
    @Inject(MailPort) private readonly mail: MailPort,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.handlers.register<OrganizerNoticePayload>(ORGANIZER_NOTICE_JOB, {
      run: (job) => this.send(job),
      describe: ({ noticeId }) => ({ noticeId }),
    });
    this.handlers.recurring(ORGANIZER_NOTICE_PURGE_JOB, {
      run: async (now) => {
        await this.notices.purgeDone(now - DONE_KEPT_MS);
      },
      firstRunAt: (now) => now + DAY_MS,
      nextRunAt: (now) => now + DAY_MS,
    });
  }

  private async send(job: Job<OrganizerNoticePayload>): Promise<void> {
    const notice = await this.notices.find(job.payload.noticeId);
    if (!notice) return;
    const to = this.config.organizerEmail ?? null;
    if (!to) {
      this.logger.warn({
        msg: 'organizer notice on the dashboard; set ORGANIZER_EMAIL to have it mailed too',
        kind: notice.kind,
        orderId: notice.orderId,
      });
      return;
    }
    const { title, paragraphs } = noticeWords(notice);
    const all = [
      ...paragraphs,
      'Du findest den Hinweis auch im Veranstalterbereich unter „Hinweise aus dem Shop“ und kannst ihn dort als erledigt markieren.',
    ];
    await this.mail.send({
      id: `organizer-notice-${notice.id}`,
      to,
      subject: title,
      html: renderMailLayout({
        title,
        topic: 'Shop',
        bodyHtml: all.map((p) => mailParagraph(escapeHtml(p))).join(''),
        publicUrl: this.config.publicUrl,
      }),
      text: renderMailText(all, this.config.publicUrl),
      attachments: [],
    });
  }
}
