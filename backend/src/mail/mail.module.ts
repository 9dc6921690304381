import { Module } from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { instrumented, MetricsRegistry } from '../ops/dependency-metrics.js';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { createMailAdapter } from './mail-adapter.factory.js';
import { MailTestController } from './mail-test.controller.js';
import { MailboxRepository, MailPort } from './mail.port.js';
import { KyselyMailboxRepository } from './mailbox.repository.js';
import { TestMailbox } from './test-mailbox.js';

/**
 * The SMTP server's sends timed and their failures counted (docs/operations.md "Betrieb: Metriken"). A
 * recipient the server refuses (nodemailer's EENVELOPE) is an answer about one address, not
 * the server failing.
 */
function instrumentedMail(adapter: MailPort, metrics: MetricsRegistry): MailPort {
  if (adapter.name !== 'smtp') return adapter;
  return instrumented(
    adapter,
    'smtp',
    ['send'],
    metrics.dependencies,
    (err) => (err as { code?: unknown } | null)?.code !== 'EENVELOPE',
  );
}

/**
 * Mail (rules "E-mail"): the mail port with its SMTP and embedded-mailbox adapters, the
 * `/mail-test` mailbox and the one layout of every mail (`mail-layout.ts`). Its users (the
 * ticket mail, the waiting list's mails) import this module; it imports no domain module:
 * what the mailbox page shows of payments and the door is told to `TestMailbox`.
 */
@Module({
  imports: [StoreModule],
  controllers: [MailTestController],
  providers: [
    storeRepository(MailboxRepository, (db) => new KyselyMailboxRepository(db)),
    {
      provide: MailPort,
      inject: [AppConfig, MailboxRepository, MetricsRegistry],
      useFactory: (config: AppConfig, mailbox: MailboxRepository, metrics: MetricsRegistry) =>
        instrumentedMail(createMailAdapter(config, mailbox), metrics),
    },
    TestMailbox,
  ],
  exports: [MailPort, TestMailbox],
})
export class MailModule {}
