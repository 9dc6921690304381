import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../common/api-error.js';
import { DoorCode } from './door-code.js';
import { DoorLockout } from './door-lockout.js';

export const WRONG_CODE_MESSAGE = 'Der Türcode stimmt nicht.';
export const LOCKED_OUT_MESSAGE =
  'Zu viele falsche Türcodes. Bitte warte ein paar Minuten und versuche es dann erneut.';

/** `Authorization: Bearer <code>`; null when absent or another scheme. */
function bearer(header: string | undefined): string | null {
  const match = /^Bearer[ ]+(.+)$/i.exec(header ?? '');
  return match ? match[1]!.trim() : null;
}

/**
 * Every /api/checkin route needs the door code (DESIGN "Tickets and the door"). An address
 * that sent too many wrong codes is refused before its code is even compared, so a lockout
 * cannot be used to test guesses.
 */
@Injectable()
export class DoorCodeGuard implements CanActivate {
  constructor(
    @Inject(DoorCode) private readonly code: DoorCode,
    @Inject(DoorLockout) private readonly lockout: DoorLockout,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    // Ticket lists and check-ins are never cached, errors included.
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex');

    const now = Date.now();
    const locked = this.lockout.lockedFor(request.ip, now);
    if (locked > 0) throw lockedOut(reply, locked);

    const presented = bearer(request.headers.authorization);
    if (presented !== null && (await this.code.matches(presented))) {
      this.lockout.passed(request.ip);
      return true;
    }
    // A missing code is no guess: only wrong ones count towards the lockout.
    const lockedNow = presented === null ? 0 : this.lockout.wrong(request.ip, now);
    if (lockedNow > 0) throw lockedOut(reply, lockedNow);
    reply.header('www-authenticate', 'Bearer');
    throw apiError(401, WRONG_CODE_MESSAGE);
  }
}

function lockedOut(reply: FastifyReply, ms: number) {
  reply.header('retry-after', String(Math.ceil(ms / 1000)));
  return apiError(429, LOCKED_OUT_MESSAGE);
}
