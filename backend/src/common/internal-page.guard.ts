import { type CanActivate, Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { apiError } from './api-error.js';

/** What the internal test pages show in production instead of their data. */
export const INTERNAL_PAGE_CLOSED_MESSAGE =
  'Diese interne Testseite ist im Produktivbetrieb abgeschaltet.';

/**
 * Data of the internal test pages (/webhook-test: the payment provider's mode and events,
 * the waiting lists' lengths): for trying the site out. In production
 * (NODE_ENV=production) they tell the public nothing, not even which provider runs.
 */
@Injectable()
export class InternalPageGuard implements CanActivate {
  constructor(@Inject(AppConfig) private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (this.config.production) throw apiError(404, INTERNAL_PAGE_CLOSED_MESSAGE);
    return true;
  }
}
