import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../common/api-error.js';
import { DoorCode } from './door-code.js';
import { DoorLockout } from './door-lockout.js';
import { DOOR_SESSION_PREFIX, DoorSessions } from './door-session.js';

export const WRONG_CODE_MESSAGE = 'Der Türcode stimmt nicht.';
export const LOCKED_OUT_MESSAGE =
  'Zu viele falsche Türcodes aus diesem Netz. Bitte warte eine Viertelstunde; angemeldete Geräte arbeiten weiter.';
export const SESSION_EXPIRED_MESSAGE =
  'Die Freigabe dieses Geräts ist abgelaufen. Bitte gib den Türcode erneut ein.';

/** `Authorization: Bearer <code or door session>`; null when absent or another scheme. */
function bearer(header: string | undefined): string | null {
  const match = /^Bearer[ ]+(.+)$/i.exec(header ?? '');
  return match ? match[1]!.trim() : null;
}

const DOOR_CODE_ONLY = 'awhh:door-code-only';

/** A request the guard let in by a door session carries that session's id. */
export type DoorRequest = FastifyRequest & { doorSession?: string };

/** A route that takes the door code itself, never a door session (a session cannot renew itself). */
export const DoorCodeOnly = () => SetMetadata(DOOR_CODE_ONLY, true);

/**
 * Every /api/checkin route needs the door code or a door session (docs/features.md "Door check-in").
 *
 * Five wrong codes lock the address (an IPv6 /64) out for 15 minutes, and while it is locked
 * out no code it sends is compared at all: the right one gets the same 429, so guessing
 * stops at the limit instead of going on at the limit's pace. A door session is no guess at
 * the code (its HMAC cannot be guessed either), so it passes from a locked-out address and a
 * refused one is not counted: phones already signed in keep working when somebody on the
 * venue's Wi-Fi types wrong codes, and a phone whose session ran out locks nobody out.
 */
@Injectable()
export class DoorCodeGuard implements CanActivate {
  constructor(
    @Inject(DoorCode) private readonly code: DoorCode,
    @Inject(DoorSessions) private readonly sessions: DoorSessions,
    @Inject(DoorLockout) private readonly lockout: DoorLockout,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    // Ticket lists and check-ins are never cached, errors included.
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex');

    const presented = bearer(request.headers.authorization);
    if (presented === null) throw unauthorized(reply, WRONG_CODE_MESSAGE);

    if (presented.startsWith(DOOR_SESSION_PREFIX)) {
      const codeOnly = this.reflector.getAllAndOverride<boolean>(DOOR_CODE_ONLY, [
        context.getHandler(),
        context.getClass(),
      ]);
      const session = codeOnly ? null : await this.sessions.verify(presented);
      if (session !== null) {
        (request as DoorRequest).doorSession = session;
        return true;
      }
      throw unauthorized(reply, SESSION_EXPIRED_MESSAGE);
    }

    const now = Date.now();
    const lockedBefore = this.lockout.lockedFor(request.ip, now);
    if (lockedBefore > 0) throw lockedOut(reply, lockedBefore);
    if (await this.code.matches(presented)) return true;
    const locked = this.lockout.wrong(request.ip, now);
    if (locked > 0) throw lockedOut(reply, locked);
    throw unauthorized(reply, WRONG_CODE_MESSAGE);
  }
}

function unauthorized(reply: FastifyReply, message: string) {
  reply.header('www-authenticate', 'Bearer');
  return apiError(401, message);
}

function lockedOut(reply: FastifyReply, ms: number) {
  reply.header('retry-after', String(Math.ceil(ms / 1000)));
  return apiError(429, LOCKED_OUT_MESSAGE);
}
