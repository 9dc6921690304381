import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { escapeHtml as esc } from '@awhh/machines';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimit } from '../common/rate-limit.js';
import { AppConfig } from '../config/config.js';
import { MAIL_COLORS } from '../mail/mail-layout.js';
import { SITE_NAME } from '../site/html-head.js';
import { ReminderRepository } from './reminders.port.js';

const TOKEN = /^[\w-]{20,64}$/;

const C = MAIL_COLORS;

/** The site's dark-and-gold look in one small page (the mails' colours), no scripts. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${esc(title)} – ${esc(SITE_NAME)}</title>
<style>
body{margin:0;background:${C.ground};color:${C.text};font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:32rem;margin:0 auto;padding:3rem 1.25rem}
.card{background:${C.card};border-top:3px solid ${C.gold};border-radius:8px;padding:1.5rem}
.kicker{color:${C.gold};text-transform:uppercase;letter-spacing:.16em;font-size:.75rem;margin:0 0 .5rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
p{margin:0 0 1rem;color:${C.text}}
a{color:${C.gold}}
button{background:${C.gold};color:${C.ground};border:0;border-radius:4px;font:inherit;font-weight:700;padding:.75rem 1.25rem;min-height:44px;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid ${C.text};outline-offset:2px}
</style></head>
<body><main><div class="card"><p class="kicker">${esc(SITE_NAME)} · Erinnerungen</p><h1>${esc(title)}</h1>${body}</div></main></body></html>`;
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
  // Tokens are random, but a guessing client is stopped all the same.
  @RateLimit({ name: 'reminders-unsubscribe', limit: 30, windowMs: 10 * 60_000 })
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
