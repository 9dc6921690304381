import { Inject, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../common/api-prefix.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailModule } from '../mail/mail.module.js';
import { TestMailbox } from '../mail/test-mailbox.js';
import { storeAdapter, storeRepository, StoreModule } from '../store/store.module.js';
import { TicketsModule } from '../tickets/tickets.module.js';
import { CheckinController } from './checkin.controller.js';
import { KyselyCheckinRepository } from './checkin.repository.js';
import { CheckinService } from './checkin.service.js';
import { DoorCode } from './door-code.js';
import { DoorCodeGuard } from './door-code.guard.js';
import { DoorLockout } from './door-lockout.js';
import { DoorSessions } from './door-session.js';
import { DoorSessionRepository, KyselyDoorSessionRepository } from './door-session.repository.js';
import { CheckinRepository } from './door.port.js';
import { ManualCheckins } from './manual-checkin.js';

/**
 * A full sync (500 scans of about 300 bytes) is larger than the app's general body limit;
 * this route alone takes more. Tokens longer than ours would not fit, and are invalid anyway.
 */
export const SCAN_SYNC_BODY_LIMIT_BYTES = 512 * 1024;

/**
 * The door (rules "Tickets and the door"): the door's API, the door code, door sessions,
 * the lockout, ticket lists and the scan sync; served by the checkout side, beside the
 * tickets it checks (nginx sends /api/checkin there). It shows its embedded code on
 * /mail-test by telling the mail module's `TestMailbox`.
 */
@Module({
  imports: [StoreModule, TicketsModule, MailModule, JobsModule],
  controllers: [CheckinController],
  providers: [
    storeAdapter(CheckinRepository, (store) => new KyselyCheckinRepository(store)),
    DoorCode,
    storeRepository(DoorSessionRepository, (db) => new KyselyDoorSessionRepository(db)),
    DoorSessions,
    DoorLockout,
    DoorCodeGuard,
    CheckinService,
    ManualCheckins,
  ],
  // The organizer's dashboard counts the check-ins, its guest list makes them by hand
  // (rules "The organizer").
  // The organizer shows and renews the door code and ends devices' sessions (rules "The
  // organizer").
  exports: [CheckinRepository, ManualCheckins, DoorCode, DoorSessions],
})
export class DoorModule implements NestModule {
  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(DoorCode) doorCode: DoorCode,
    @Inject(TestMailbox) mailbox: TestMailbox,
  ) {
    mailbox.showDoorCode(() => doorCode.embeddedCode());
  }

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
