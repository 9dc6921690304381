import { Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import type { OrganizerNotices } from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { RateLimit } from '../common/rate-limit.js';
import { noticeWords } from '../notices/organizer-notice.jobs.js';
import { OrganizerNoticeRepository } from '../notices/organizer-notices.port.js';
import { OrganizerGuard } from './organizer.guard.js';

/** How many open notices the dashboard lists (newest first). */
const LISTED = 100;
const NOTICE_ID = /^[A-Za-z0-9_-]{22}$/;
export const NO_OPEN_NOTICE_MESSAGE = 'Diesen offenen Hinweis gibt es nicht (mehr).';

/**
 * docs/ledger.md "Told to the organizer": the open notices on the dashboard, and "Erledigt"
 * once the organizer has seen to them in the shop. Behind the dashboard's guard.
 */
@Controller('organizer')
@UseGuards(OrganizerGuard)
export class OrganizerNoticesController {
  constructor(
    @Inject(OrganizerNoticeRepository) private readonly notices: OrganizerNoticeRepository,
  ) {}

  @Get('notices')
  async open(): Promise<OrganizerNotices> {
    const open = await this.notices.open(LISTED);
    return {
      notices: open.map((notice) => ({
        id: notice.id,
        kind: notice.kind,
        ...noticeWords(notice),
        at: new Date(notice.createdAt).toISOString(),
      })),
    };
  }

  @Post('notices/:id/done')
  @HttpCode(204)
  @RateLimit({ name: 'organizer-notice-done', limit: 60, windowMs: 60_000 })
  async done(@Param('id') id: string): Promise<void> {
    if (!NOTICE_ID.test(id) || !(await this.notices.done(id, Date.now()))) {
      throw apiError(404, NO_OPEN_NOTICE_MESSAGE);
    }
  }
}
