import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpException,
  Inject,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { OutgoingHttpHeaders } from 'node:http';
import type { OrganizerEvents, OrganizerSession } from '@awhh/machines';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../common/api-error.js';
import { RateLimit } from '../common/rate-limit.js';
import { TestMailbox } from '../mail/test-mailbox.js';
import { OrganizerCode } from './organizer-code.js';
import { OrganizerDashboard } from './organizer-dashboard.js';
import { OrganizerLive } from './organizer-live.js';
import { organizerCookie, organizerCookies, OrganizerSessions } from './organizer-session.js';
import { OrganizerSignIn } from './organizer-sign-in.js';
import { OrganizerGuard, OrganizerOpen, type OrganizerRequest } from './organizer.guard.js';
import { OrganizerOptions } from './organizer.options.js';

export const EVENT_NOT_FOUND_MESSAGE = 'Dieses Event gibt es nicht.';
export const LIVE_FULL_MESSAGE =
  'Gerade sind zu viele Live-Ansichten offen. Bitte schließe andere Tabs des Veranstalterbereichs.';
export const CODE_CLOSED_MESSAGE =
  'Den Veranstaltercode zeigt nur das Testpostfach, solange Zahlungen und E-Mails im Testmodus laufen.';

/**
 * rules "The organizer": /veranstalter's API on the checkout side, beside the orders,
 * tickets, check-ins and waiting list it reads (nginx sends /api/organizer there). Every
 * route goes through `OrganizerGuard`: never cached, state changes only from the site's own
 * pages, the session cookie on all but the sign-in's routes.
 */
@Controller('organizer')
@UseGuards(OrganizerGuard)
export class OrganizerController {
  constructor(
    @Inject(OrganizerSessions) private readonly sessions: OrganizerSessions,
    @Inject(OrganizerSignIn) private readonly signIn: OrganizerSignIn,
    @Inject(OrganizerDashboard) private readonly dashboard: OrganizerDashboard,
    @Inject(OrganizerLive) private readonly live: OrganizerLive,
    @Inject(OrganizerOptions) private readonly options: OrganizerOptions,
    @Inject(OrganizerCode) private readonly code: OrganizerCode,
    @Inject(TestMailbox) private readonly mailbox: TestMailbox,
  ) {}

  /** Whether this browser is signed in, and how one signs in here (the page's form). */
  @Get('session')
  @OrganizerOpen()
  session(@Req() request: OrganizerRequest): OrganizerSession {
    return {
      signedIn: request.organizerSession !== undefined,
      method: this.sessions.method,
      name: request.organizerSession?.name ?? null,
    };
  }

  /** The right account or code: 204 with the session cookie. */
  @Post('session')
  @OrganizerOpen()
  @HttpCode(204)
  @RateLimit({ name: 'organizer-sign-in', limit: 20, windowMs: 60_000 })
  async create(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    try {
      const { token, maxAgeSeconds } = await this.signIn.signIn(body, request.ip);
      reply.header('set-cookie', organizerCookie(token, maxAgeSeconds, isHttps(request)));
    } catch (err) {
      const seconds = retryAfterOf(err);
      if (seconds !== null) reply.header('retry-after', String(seconds));
      throw err;
    }
  }

  /** Signing out: the session ends everywhere, and the cookie is dropped in this browser. */
  @Delete('session')
  @OrganizerOpen()
  @HttpCode(204)
  async remove(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    for (const token of organizerCookies(request.headers.cookie)) await this.sessions.end(token);
    reply.header('set-cookie', organizerCookie('', 0, isHttps(request)));
  }

  /** "Alle Sitzungen beenden": every organizer session ends, on every device. */
  @Delete('sessions')
  @HttpCode(204)
  async removeAll(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.endAll();
    reply.header('set-cookie', organizerCookie('', 0, isHttps(request)));
  }

  @Get('events')
  events(): Promise<OrganizerEvents> {
    return this.dashboard.events();
  }

  /**
   * Server-sent events: the event's figures at once and whenever they change, a comment
   * line now and then so proxies keep the stream open, and `signed-out` when the session
   * runs out or ends (signed out, "Alle Sitzungen beenden", WordPress said no): at once in
   * this process, at the next heartbeat in any other (the page then asks for a sign-in).
   */
  @Get('events/:id/live')
  async stream(
    @Param('id') idParam: string,
    @Req() request: OrganizerRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!/^\d{1,10}$/.test(idParam)) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
    const id = Number(idParam);
    if (this.live.full) throw apiError(503, LIVE_FULL_MESSAGE);
    if (!(await this.dashboard.event(id))) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
    const expiresAt = request.organizerSession!.expiresAt;
    const token = request.organizerToken!;

    reply.hijack();
    const raw = reply.raw;
    const headers: OutgoingHttpHeaders = {};
    // The security headers and request id the app's hook set on the reply.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) headers[name] = value;
    }
    raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, private',
      // nginx passes each message on at once instead of buffering the stream.
      'x-accel-buffering': 'no',
      // The connection ends with the stream: a stream ended at shutdown must not leave a
      // kept-alive socket that holds the server's close open.
      connection: 'close',
    });
    raw.write('retry: 3000\n\n');

    let closed = false;
    let unsubscribe = () => {};
    let unwatch = () => {};
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      unwatch();
      if (!raw.writableEnded) raw.end();
    };
    const signOut = () => {
      if (closed) return;
      raw.write('event: signed-out\ndata: {}\n\n');
      close();
    };
    /** False once the session ran out: the stream says so and ends. */
    const stillSignedIn = () => {
      if (Date.now() < expiresAt) return true;
      signOut();
      return false;
    };
    /** The store asked again: a session ended anywhere ends its stream. */
    const checkSession = async () => {
      const session = await this.sessions.verify(token).catch(() => undefined);
      // A store that does not answer keeps the stream; the next heartbeat asks again.
      if (session === null) signOut();
    };
    const heartbeat = setInterval(() => {
      if (!stillSignedIn()) return;
      raw.write(': ping\n\n');
      void checkSession();
    }, this.options.heartbeatMs);
    heartbeat.unref();
    unwatch = this.sessions.onEnded(() => void checkSession());
    raw.on('close', close);
    unsubscribe = this.live.subscribe(id, {
      send: (event) => {
        if (!closed && stillSignedIn()) raw.write(`data: ${JSON.stringify(event)}\n\n`);
      },
      end: close,
    });
  }

  /**
   * The embedded organizer code for /mail-test, beside the door code: only while the test
   * mailbox is open (test payments and mail kept in the store, never in production); null
   * when ORGANIZER_CODE is set or the site signs in with WordPress.
   */
  @Get('code')
  @OrganizerOpen()
  async embeddedCode(): Promise<{ code: string | null }> {
    if (!this.mailbox.enabled) throw apiError(404, CODE_CLOSED_MESSAGE);
    return { code: await this.code.embeddedCode() };
  }
}

/** https as the visitor used it (behind a trusted proxy, its X-Forwarded-Proto). */
function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

function retryAfterOf(err: unknown): number | null {
  if (!(err instanceof HttpException) || err.getStatus() !== 429) return null;
  const body = err.getResponse() as { retryAfterSeconds?: unknown };
  return typeof body.retryAfterSeconds === 'number' ? body.retryAfterSeconds : null;
}
