import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { escapeHtml as esc } from '@awhh/machines';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/config.js';
import { SITE_NAME } from '../site/html-head.js';
import { ReminderRepository } from './reminders.port.js';

const TOKEN = /^[\w-]{20,64}$/;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${esc(title)} – ${esc(SITE_NAME)}</title></head>
<body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

/**
 * rules "Reminders": the mails' "Keine Erinnerungen mehr" link. The link only shows a
 * button (a mail scanner that follows links changes nothing); its POST stops reminders and
 * thank-yous for that address. Pages in plain HTML, without scripts.
 */
@Controller('reminders')
export class RemindersController {
  constructor(
    @Inject(ReminderRepository) private readonly reminders: ReminderRepository,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  @Get('unsubscribe/:token')
  ask(@Param('token') token: string, @Res() reply: FastifyReply) {
    const action = `/api/reminders/unsubscribe/${encodeURIComponent(token)}`;
    return this.html(
      reply,
      200,
      page(
        'Keine Erinnerungen mehr?',
        `<p>Du bekommst dann vor deinen Events keine Erinnerung und danach keinen Dank mehr per E-Mail. Deine Tickets bleiben gültig.</p>
<form method="post" action="${esc(action)}"><button type="submit">Erinnerungen abbestellen</button></form>`,
      ),
    );
  }

  @Post('unsubscribe/:token')
  @HttpCode(200)
  async unsubscribe(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const origin = request.headers.origin;
    if (origin && origin !== new URL(this.config.publicUrl).origin) {
      return this.html(
        reply,
        403,
        page('Nicht erlaubt', '<p>Bitte nutze den Link aus der E-Mail.</p>'),
      );
    }
    const done = TOKEN.test(token) && (await this.reminders.unsubscribe(token, Date.now()));
    if (!done) {
      return this.html(
        reply,
        404,
        page(
          'Link ungültig',
          '<p>Diesen Abmelde-Link kennen wir nicht. Bitte nutze den Link aus der E-Mail.</p>',
        ),
      );
    }
    return this.html(
      reply,
      200,
      page(
        'Erinnerungen abbestellt',
        `<p>Du bekommst keine Erinnerungen und keinen Dank nach dem Event mehr. Deine Tickets bleiben gültig.</p><p><a href="${esc(this.config.publicUrl)}">Zur Startseite</a></p>`,
      ),
    );
  }

  private html(reply: FastifyReply, status: number, body: string) {
    return reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(body);
  }
}
