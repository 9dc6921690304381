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
import { AppConfig } from '../config/config.js';
import { type OrganizerSession, OrganizerSessions, organizerCookies } from './organizer-session.js';

export const SIGNED_OUT_MESSAGE =
  'Bitte melde dich im Veranstalterbereich an. Die Anmeldung gilt 12 Stunden.';
export const FOREIGN_ORIGIN_MESSAGE =
  'Diese Anfrage kam nicht von dieser Website und wird deshalb nicht ausgeführt.';

const OPEN = 'awhh:organizer-open';

/** A route of /api/organizer that answers without a session (sign-in, its state). */
export const OrganizerOpen = () => SetMetadata(OPEN, true);

/** What the guard leaves on the request for the handler. */
export type OrganizerRequest = FastifyRequest & {
  organizerSession?: OrganizerSession;
  /** The cookie's token that session was found by (the live stream checks it again). */
  organizerToken?: string;
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every /api/organizer route (rules "The organizer"): never cached or indexed (sales
 * figures, and answers that set or depend on the session cookie), a state-changing request
 * only from the site's own pages (its `Origin` must be PUBLIC_URL's; SameSite=Strict keeps
 * the cookie off other sites' requests already, this keeps their requests off the sign-in
 * and sign-out too), and the session cookie on every route but the open ones.
 */
@Injectable()
export class OrganizerGuard implements CanActivate {
  private readonly origin: string;

  constructor(
    @Inject(OrganizerSessions) private readonly sessions: OrganizerSessions,
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(AppConfig) config: AppConfig,
  ) {
    this.origin = new URL(config.publicUrl).origin;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<OrganizerRequest>();
    const reply = http.getResponse<FastifyReply>();
    reply.header('cache-control', 'no-store, private');
    reply.header('x-robots-tag', 'noindex');

    if (!SAFE_METHODS.has(request.method) && request.headers.origin !== this.origin) {
      throw apiError(403, FOREIGN_ORIGIN_MESSAGE);
    }
    for (const token of organizerCookies(request.headers.cookie)) {
      const session = await this.sessions.verify(token);
      if (session) {
        request.organizerSession = session;
        request.organizerToken = token;
        return true;
      }
    }
    const open = this.reflector.getAllAndOverride<boolean>(OPEN, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (open) return true;
    throw apiError(401, SIGNED_OUT_MESSAGE);
  }
}
