import { Global, Inject, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../common/api-prefix.js';
import { StoreModule } from '../store/store.module.js';
import { TicketsModule } from '../tickets/tickets.module.js';
import { CheckinController } from './checkin.controller.js';
import { CheckinService } from './checkin.service.js';
import { DoorCode } from './door-code.js';
import { DoorCodeGuard } from './door-code.guard.js';
import { DoorLockout } from './door-lockout.js';
import { DoorSessions } from './door-session.js';

/**
 * A full sync (500 scans of about 300 bytes) is larger than the app's general body limit;
 * this route alone takes more. Tokens longer than ours would not fit, and are invalid anyway.
 */
export const SCAN_SYNC_BODY_LIMIT_BYTES = 512 * 1024;

/**
 * The door check-in (rules "Tickets and the door"): served by the checkout side, beside
 * the tickets it checks (nginx sends /api/checkin there). Global only so that /mail-test
 * can show the embedded door code.
 */
@Global()
@Module({
  imports: [StoreModule, TicketsModule],
  controllers: [CheckinController],
  providers: [DoorCode, DoorSessions, DoorLockout, DoorCodeGuard, CheckinService],
  exports: [DoorCode],
})
export class CheckinModule implements NestModule {
  constructor(@Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost) {}

  // Nest offers no per-route body limit; Fastify does. configure() runs before Nest adds
  // its routes, so the hook sees the sync route being added.
  configure(_consumer: MiddlewareConsumer): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const path = `/${API_PREFIX}/checkin/scans`;
    fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.url === path && methods.includes('POST')) {
        route.bodyLimit = SCAN_SYNC_BODY_LIMIT_BYTES;
      }
    });
  }
}
