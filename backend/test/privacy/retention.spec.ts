import { DAY_MS, retentionPeriods } from '@awhh/machines';
import { ConfigError, parseConfig } from '../../src/config/config.js';
import { newId } from '../../src/orders/ids.js';
import { JobHandlers } from '../../src/jobs/job-handlers.js';
import { JobOptions } from '../../src/jobs/job-options.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { JobSignal } from '../../src/jobs/job-signal.js';
import {
  PersonalDataRetention,
  RETENTION_JOB,
  retentionCutoffs,
} from '../../src/privacy/personal-data-retention.js';
import { AppConfig } from '../../src/config/config.js';
import { parseDatabaseUrl } from '../../src/config/config.js';
import { KyselyPrivacyRepository } from '../../src/privacy/privacy.repository.js';
import { KyselyJobRepository } from '../../src/jobs/job.repository.js';
import { KyselyReminderRepository } from '../../src/reminders/reminders.repository.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import type { ErasureCounts } from '../../src/privacy/privacy.port.js';
import { createTestDatabase, DATABASES } from '../support/checkout-test-app.js';
import { daysAgo, NOW, Seed } from './support/seed.js';

// docs/privacy.md: unpaid checkouts 7 days; paid orders' people, the scans' device names and
// stored mails PERSONAL_DATA_DAYS_AFTER_EVENT (90) days after the event; contact messages
// 90 days; waiting-list entries without a date 90 days after joining. Orders and tickets are
// anonymised, never deleted: the books and the door's counts stay right.

describe('PERSONAL_DATA_DAYS_AFTER_EVENT', () => {
  it('is 90 by default, a whole number of days from 1 otherwise', () => {
    expect(parseConfig({}).personalDataDaysAfterEvent).toBe(90);
    expect(parseConfig({ PERSONAL_DATA_DAYS_AFTER_EVENT: '30' }).personalDataDaysAfterEvent).toBe(
      30,
    );
    for (const bad of ['0', '-5', '1.5', 'neunzig', '99999']) {
      expect(() => parseConfig({ PERSONAL_DATA_DAYS_AFTER_EVENT: bad })).toThrow(ConfigError);
    }
  });

  it('moves the cutoffs of paid orders, scans and mails, not those of the fixed periods', () => {
    const cutoffs = retentionCutoffs(retentionPeriods(30), NOW);
    expect(cutoffs).toEqual({
      unpaidCreatedBefore: NOW - 7 * DAY_MS,
      afterEventBefore: NOW - 30 * DAY_MS,
      contactCreatedBefore: NOW - 90 * DAY_MS,
      undatedWaitlistCreatedBefore: NOW - 30 * DAY_MS,
    });
  });
});

describe.each(DATABASES)('personal data erasure (%s)', (kind) => {
  let drop: () => Promise<void>;
  let store: StoreDatabase;
  let seed: Seed;
  let sut: KyselyPrivacyRepository;

  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    drop = database.drop;
    store = await StoreDatabase.open(parseDatabaseUrl(database.url));
  });

  afterAll(async () => {
    await store.close();
    await drop();
  });

  beforeEach(async () => {
    for (const table of [
      'mail_attachments',
      'mails',
      'checkins',
      'checkin_scans',
      'tickets',
      'jobs',
      'order_lines',
      'orders',
      'contact_messages',
      'waitlist_offers',
      'holds',
      'waitlist_entries',
      'coupon_holds',
      'reminder_addresses',
      'shop_orders',
    ] as const) {
      await store.db.deleteFrom(table).execute();
    }
    seed = new Seed(store.db);
    sut = new KyselyPrivacyRepository(store);
  });

  const orderRow = (id: string) =>
    store.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const holders = async (orderId: string) =>
    (
      await store.db
        .selectFrom('tickets')
        .select('holder')
        .where('order_id', '=', orderId)
        .orderBy('seat')
        .execute()
    ).map((t) => t.holder);
  const ids = async (table: 'mails' | 'waitlist_entries') =>
    (await store.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);

  it('erases exactly what the periods no longer allow, and keeps the rest', async () => {
    const person = (n: string) => ({ email: `${n}@example.org`, name: `${n} Muster` });
    // Checkouts never paid: 7 days after they were made.
    await seed.order('unpaid-old', 'expired', daysAgo(8), person('anna'));
    await seed.order('unpaid-new', 'open', daysAgo(6), person('bert'));
    // The keyed hash of the client's address (the limit of open checkouts) goes with them.
    await store.db
      .updateTable('orders')
      .set({ client_key: 'hmac-of-the-address' })
      .where('id', 'in', ['unpaid-old', 'unpaid-new'])
      .execute();
    // Paid: 90 days after the order's last event; without an event, after the payment.
    await seed.order('paid-past', 'handedOff', daysAgo(200), person('clara'), daysAgo(200));
    const claraTicket = await seed.ticket('paid-past', daysAgo(91), 'Clara Muster');
    await seed.order('paid-two-events', 'handedOff', daysAgo(200), person('dora'), daysAgo(200));
    await seed.ticket('paid-two-events', daysAgo(100), 'Dora Muster');
    await seed.ticket('paid-two-events', daysAgo(30), 'Dora Muster');
    await seed.order('merch-old', 'handedOff', daysAgo(95), person('emil'), daysAgo(95));
    await seed.order('merch-new', 'handedOff', daysAgo(89), person('fritz'), daysAgo(89));
    await seed.order('paid-upcoming', 'paid', daysAgo(120), person('gina'), daysAgo(120));
    await seed.ticket('paid-upcoming', NOW + 10 * DAY_MS, 'Gina Muster');
    await seed.order('refunded-past', 'refunded', daysAgo(100), person('hans'), daysAgo(100));
    await seed.ticket('refunded-past', daysAgo(95), 'Hans Muster');
    // A job's error may quote the address.
    await seed.outboxError('paid-past', '550 clara@example.org: mailbox unavailable');
    // The door: device names 90 days after the scan, the scans themselves kept.
    await seed.checkin(claraTicket, daysAgo(91), 'Tür Anna');
    await seed.scan(null, daysAgo(91), 'Tür Evil');
    await seed.scan(null, daysAgo(10), 'Tür Bob');
    // Stored mails: 90 days after they were stored (before their event, so never later).
    await seed.mail('order-paid-past', 'clara@example.org', daysAgo(91));
    await seed.mail('order-paid-upcoming', 'gina@example.org', daysAgo(10));
    // Contact messages: 90 days.
    await seed.contact('ida@example.org', daysAgo(91));
    await seed.contact('jan@example.org', daysAgo(89));
    // Waiting list: without a date 90 days after joining; with one, the waiting-list pass
    // deletes it the day after the event.
    await seed.waitlistEntry('w-undated-old', 'kai@example.org', daysAgo(91), null);
    await seed.waitlistEntry('w-undated-new', 'lea@example.org', daysAgo(89), null);
    await seed.waitlistEntry('w-dated', 'max@example.org', daysAgo(91), NOW + DAY_MS);

    const counts = await sut.eraseExpired(retentionCutoffs(retentionPeriods(90), NOW));

    expect(counts).toEqual({
      orders: 4,
      tickets: 2,
      scans: 3,
      mails: 1,
      contactMessages: 1,
      waitlistEntries: 1,
      reminderAddresses: 0,
      organizerSessions: 0,
    });
    for (const id of ['unpaid-old', 'paid-past', 'merch-old', 'refunded-past']) {
      expect(await orderRow(id)).toMatchObject({ email: null, buyer_name: null, client_key: null });
    }
    expect((await orderRow('unpaid-new')).client_key).toBe('hmac-of-the-address');
    for (const id of ['unpaid-new', 'paid-two-events', 'merch-new', 'paid-upcoming']) {
      expect((await orderRow(id)).email).toMatch(/@example\.org$/);
      expect((await orderRow(id)).buyer_name).toMatch(/ Muster$/);
    }
    // The order stays for the books, the ticket for the door's counts.
    expect(await orderRow('paid-past')).toMatchObject({
      status: 'handedOff',
      total: 5000,
      catalog_order_id: '1001',
    });
    expect(await holders('paid-past')).toEqual([null]);
    expect(await holders('refunded-past')).toEqual([null]);
    expect(await holders('paid-two-events')).toEqual(['Dora Muster', 'Dora Muster']);
    expect(await holders('paid-upcoming')).toEqual(['Gina Muster']);
    const outbox = await store.db
      .selectFrom('jobs')
      .select('last_error')
      .where('name', '=', 'ticket-mail')
      .execute();
    expect(outbox).toEqual([{ last_error: null }]);
    const checkins = await store.db
      .selectFrom('checkins')
      .select(['ticket_id', 'device'])
      .execute();
    expect(checkins).toEqual([{ ticket_id: claraTicket, device: '' }]);
    const scans = await store.db
      .selectFrom('checkin_scans')
      .select('device')
      .orderBy('received_at')
      .execute();
    expect(scans.map((s) => s.device)).toEqual(['', '', 'Tür Bob']);
    expect(await ids('mails')).toEqual(['order-paid-upcoming']);
    expect(await store.db.selectFrom('mail_attachments').select('mail_id').execute()).toEqual([
      { mail_id: 'order-paid-upcoming' },
    ]);
    const contact = await store.db.selectFrom('contact_messages').select('email').execute();
    expect(contact).toEqual([{ email: 'jan@example.org' }]);
    expect(await ids('waitlist_entries')).toEqual(['w-dated', 'w-undated-new']);
    const offers = await store.db.selectFrom('waitlist_offers').select('entry_id').execute();
    expect(offers.map((o) => o.entry_id).sort()).toEqual(['w-dated', 'w-undated-new']);
    // An offer's places, a hold owned by its entry, go with it.
    const holds = await store.db.selectFrom('holds').select('owner').execute();
    expect(holds.map((h) => h.owner).sort()).toEqual(['w-dated', 'w-undated-new']);

    // Nothing is left to erase until time moves on.
    expect(await sut.eraseExpired(retentionCutoffs(retentionPeriods(90), NOW))).toEqual({
      orders: 0,
      tickets: 0,
      scans: 0,
      mails: 0,
      contactMessages: 0,
      waitlistEntries: 0,
      reminderAddresses: 0,
      organizerSessions: 0,
    });
  });

  it("keeps an address on the reminders' list (and its unsubscribe) while the store names it anywhere, and deletes it with the last of it", async () => {
    const reminderAddress = (email: string, unsubscribed: boolean) =>
      store.db
        .insertInto('reminder_addresses')
        .values({
          email,
          token: `token-${email.replace(/\W/g, '-')}`,
          unsubscribed_at: unsubscribed ? daysAgo(100) : null,
          created_at: daysAgo(120),
        })
        .execute();
    const person = (email: string) => ({ email, name: 'Ulla Muster' });
    // Unsubscribed, with a ticket for an upcoming event; the order keeps the address as typed.
    await seed.order('upcoming', 'paid', daysAgo(120), person(' Ulla@Example.org'), daysAgo(120));
    await seed.ticket('upcoming', NOW + 10 * DAY_MS, 'Ulla Muster');
    await reminderAddress('ulla@example.org', true);
    // Unsubscribed, its last event 91 days ago: its order goes today, and the entry with it.
    await seed.order('past', 'handedOff', daysAgo(200), person('vera@example.org'), daysAgo(200));
    await seed.ticket('past', daysAgo(91), 'Vera Muster');
    await reminderAddress('vera@example.org', true);
    // Its last event 89 days ago: kept for two more days, with the order.
    await seed.order('recent', 'handedOff', daysAgo(200), person('wim@example.org'), daysAgo(200));
    await seed.ticket('recent', daysAgo(89), 'Wim Muster');
    await reminderAddress('wim@example.org', true);
    // A ticket passed on to the address, an order made in the shop, the waiting list.
    await seed.order('buyer', 'paid', daysAgo(120), person('buyer@example.org'), daysAgo(120));
    const passedOn = await seed.ticket('buyer', NOW + 5 * DAY_MS, 'Xaver Muster');
    await store.db
      .updateTable('tickets')
      .set({ holder_email: 'xaver@example.org' })
      .where('id', '=', passedOn)
      .execute();
    await reminderAddress('xaver@example.org', true);
    await store.db
      .insertInto('shop_orders')
      .values({
        id: 'shop-1',
        number: '2001',
        status: 'completed',
        modified_at: daysAgo(10),
        email: 'yara@example.org',
        holder: 'Yara Muster',
        total: 2500,
        created_at: daysAgo(10),
        updated_at: daysAgo(10),
      })
      .execute();
    await reminderAddress('yara@example.org', false);
    await seed.waitlistEntry('w-zoe', 'zoe@example.org', daysAgo(3), NOW + 20 * DAY_MS);
    await reminderAddress('zoe@example.org', true);
    // Nothing names it any more (erased on their own periods long ago).
    await reminderAddress('alt@example.org', true);
    await reminderAddress('alt2@example.org', false);

    const counts = await sut.eraseExpired(retentionCutoffs(retentionPeriods(90), NOW));

    expect(counts).toMatchObject({ orders: 1, reminderAddresses: 3 });
    const left = async () =>
      (
        await store.db.selectFrom('reminder_addresses').select('email').orderBy('email').execute()
      ).map((r) => r.email);
    expect(await left()).toEqual([
      'ulla@example.org',
      'wim@example.org',
      'xaver@example.org',
      'yara@example.org',
      'zoe@example.org',
    ]);
    // The unsubscribes kept still stop reminders to those who have tickets.
    const unsubscribed = await new KyselyReminderRepository(store.db).unsubscribed([
      'ulla@example.org',
      'xaver@example.org',
      'yara@example.org',
    ]);
    expect([...unsubscribed].sort()).toEqual(['ulla@example.org', 'xaver@example.org']);
    expect(
      (await sut.eraseExpired(retentionCutoffs(retentionPeriods(90), NOW))).reminderAddresses,
    ).toBe(0);

    // Two days on, Wim's order goes, and his entry with it.
    const later = retentionCutoffs(retentionPeriods(90), NOW + 2 * DAY_MS);
    expect(await sut.eraseExpired(later)).toMatchObject({ orders: 1, reminderAddresses: 1 });
    expect(await left()).not.toContain('wim@example.org');
  });

  it("goes through a reminders' list longer than one batch", async () => {
    for (let i = 0; i < 450; i += 1) {
      await store.db
        .insertInto('reminder_addresses')
        .values({
          email: `r${String(i).padStart(3, '0')}@example.org`,
          token: `bulk-token-${i}`,
          unsubscribed_at: i % 2 === 0 ? daysAgo(100) : null,
          created_at: daysAgo(120),
        })
        .execute();
    }
    // One in the last batch is still named: kept.
    await seed.order(
      'r-live',
      'paid',
      daysAgo(20),
      { email: 'r449@example.org', name: 'R' },
      daysAgo(20),
    );
    await seed.ticket('r-live', NOW + DAY_MS, 'R');
    const counts = await sut.eraseExpired(retentionCutoffs(retentionPeriods(90), NOW));
    expect(counts.reminderAddresses).toBe(449);
    const left = await store.db.selectFrom('reminder_addresses').select('email').execute();
    expect(left).toEqual([{ email: 'r449@example.org' }]);
  });

  it('a shorter PERSONAL_DATA_DAYS_AFTER_EVENT erases sooner', async () => {
    await seed.order(
      'paid',
      'handedOff',
      daysAgo(60),
      { email: 'o@example.org', name: 'O' },
      daysAgo(60),
    );
    await seed.ticket('paid', daysAgo(31), 'O');
    const kept = await sut.eraseExpired(retentionCutoffs(retentionPeriods(90), NOW));
    expect(kept.orders).toBe(0);
    const erased = await sut.eraseExpired(retentionCutoffs(retentionPeriods(30), NOW));
    expect(erased).toMatchObject({ orders: 1, tickets: 1 });
  });

  it('handles more paid orders than fit one batch', async () => {
    for (let i = 0; i < 450; i += 1) {
      const id = `bulk-${String(i).padStart(3, '0')}`;
      await seed.order(
        id,
        'handedOff',
        daysAgo(200),
        { email: `${id}@example.org`, name: id },
        daysAgo(200),
      );
    }
    const counts = await sut.eraseExpired(retentionCutoffs(retentionPeriods(90), NOW));
    expect(counts.orders).toBe(450);
    const left = await store.db
      .selectFrom('orders')
      .select('id')
      .where('email', 'is not', null)
      .execute();
    expect(left).toEqual([]);
  });

  it('rules "Coupons": the buyer\'s key of a coupon use goes 7 days after the use stopped counting, and with its orders when an address is erased', async () => {
    const use = (owner: string, expiresAt: number, released = 0) => ({
      owner,
      code: 'einmalig',
      holder: `key-of-${owner}`,
      expires_at: expiresAt,
      released,
    });
    await store.db
      .insertInto('coupon_holds')
      .values([
        use('lapsed-long-ago', daysAgo(8)),
        use('released-long-ago', daysAgo(8), 1),
        use('lapsed-lately', daysAgo(6)),
        // Paid, not yet counted by the shop: it still counts, so its key stays.
        use('paid-waiting', Number.MAX_SAFE_INTEGER),
      ])
      .execute();
    await sut.eraseExpired(retentionCutoffs(retentionPeriods(90), NOW));
    const keys = async () =>
      Object.fromEntries(
        (await store.db.selectFrom('coupon_holds').select(['owner', 'holder']).execute()).map(
          (r) => [r.owner, r.holder],
        ),
      );
    expect(await keys()).toEqual({
      'lapsed-long-ago': null,
      'released-long-ago': null,
      'lapsed-lately': 'key-of-lapsed-lately',
      'paid-waiting': 'key-of-paid-waiting',
    });

    await seed.order('paid-waiting', 'paid', daysAgo(1), {
      email: 'gast@example.org',
      name: 'Gast Muster',
    });
    await sut.eraseAddress('gast@example.org');
    expect((await keys())['paid-waiting']).toBeNull();
    expect((await keys())['lapsed-lately']).toBe('key-of-lapsed-lately');
  });

  it('erases everything kept for one address, in any case, and nothing of anybody else', async () => {
    await seed.order(
      'mine-paid',
      'handedOff',
      daysAgo(3),
      { email: 'Gast@Example.org', name: 'Gast Muster' },
      daysAgo(3),
    );
    await seed.ticket('mine-paid', NOW + 5 * DAY_MS, 'Gast Muster');
    await seed.order('mine-open', 'open', daysAgo(1), { email: 'gast@example.org', name: null });
    await seed.order(
      'theirs',
      'handedOff',
      daysAgo(3),
      { email: 'other@example.org', name: 'Other' },
      daysAgo(3),
    );
    await seed.ticket('theirs', NOW + 5 * DAY_MS, 'Other');
    await seed.outboxError('mine-paid', '550 Gast@Example.org unknown');
    await seed.waitlistEntry('w-mine', 'gast@example.org', daysAgo(2), NOW + 5 * DAY_MS);
    await seed.waitlistEntry('w-theirs', 'other@example.org', daysAgo(2), NOW + 5 * DAY_MS);
    await seed.contact('GAST@example.org', daysAgo(2));
    await seed.contact('other@example.org', daysAgo(2));
    await seed.mail('order-mine-paid', 'gast@example.org', daysAgo(3));
    await seed.mail('order-theirs', 'other@example.org', daysAgo(3));
    for (const email of ['gast@example.org', 'other@example.org']) {
      await store.db
        .insertInto('reminder_addresses')
        .values({ email, token: `token-${email}`, unsubscribed_at: null, created_at: daysAgo(1) })
        .execute();
    }

    // rules "The organizer": a WordPress account's session with the same address.
    for (const [idHash, email] of [
      ['session-mine', 'Gast@Example.org'],
      ['session-theirs', 'other@example.org'],
    ]) {
      await store.db
        .insertInto('organizer_sessions')
        .values({
          id_hash: idHash!,
          method: 'wordpress',
          binding: 'shop',
          name: 'Gast',
          email: email!,
          username: 'gast',
          sealed_password: null,
          checked_at: daysAgo(0),
          created_at: daysAgo(0),
          expires_at: NOW + DAY_MS,
        })
        .execute();
    }

    const counts = await sut.eraseAddress('  GAST@example.ORG ');

    expect(counts).toEqual({
      orders: 2,
      tickets: 1,
      scans: 0,
      mails: 1,
      contactMessages: 1,
      waitlistEntries: 1,
      reminderAddresses: 1,
      organizerSessions: 1,
    });
    expect(
      (await store.db.selectFrom('organizer_sessions').select('id_hash').execute()).map(
        (r) => r.id_hash,
      ),
    ).toEqual(['session-theirs']);
    expect(await orderRow('mine-paid')).toMatchObject({
      email: null,
      buyer_name: null,
      total: 5000,
    });
    expect(await orderRow('mine-open')).toMatchObject({ email: null });
    expect(await holders('mine-paid')).toEqual([null]);
    expect(await orderRow('theirs')).toMatchObject({
      email: 'other@example.org',
      buyer_name: 'Other',
    });
    expect(await holders('theirs')).toEqual(['Other']);
    expect(await ids('mails')).toEqual(['order-theirs']);
    expect(await ids('waitlist_entries')).toEqual(['w-theirs']);
    const contact = await store.db.selectFrom('contact_messages').select('email').execute();
    expect(contact).toEqual([{ email: 'other@example.org' }]);
    const errors = await store.db
      .selectFrom('jobs')
      .select('last_error')
      .where('name', '=', 'ticket-mail')
      .execute();
    expect(errors).toEqual([{ last_error: null }]);
    // Asked again: nothing left.
    expect((await sut.eraseAddress('gast@example.org')).orders).toBe(0);
  });

  describe('the daily job', () => {
    const config = new AppConfig(parseConfig({ PERSONAL_DATA_DAYS_AFTER_EVENT: '90' }));
    /**
     * A checkout process: its job runner with the retention job registered; `runDue` runs
     * what is due at `now` and answers the erasures this process ran.
     */
    const checkoutProcess = () => {
      const handlers = new JobHandlers();
      const retention = new PersonalDataRetention(
        new KyselyPrivacyRepository(store),
        handlers,
        config,
      );
      const runs: ErasureCounts[] = [];
      const erase = retention.run.bind(retention);
      retention.run = async (now) => {
        const counts = await erase(now);
        runs.push(counts);
        return counts;
      };
      retention.onModuleInit();
      const runner = new JobRunner(
        new KyselyJobRepository(store.db),
        handlers,
        new JobOptions(),
        new JobSignal(),
      );
      return {
        runDue: async (now: number) => {
          const before = runs.length;
          await runner.runDue(now);
          return runs.slice(before);
        },
      };
    };

    it('runs once a day per deployment, however many processes check', async () => {
      await seed.contact('old@example.org', daysAgo(91));
      const [a, b, c] = [checkoutProcess(), checkoutProcess(), checkoutProcess()];
      const runs = await Promise.all([a.runDue(NOW), b.runDue(NOW), c.runDue(NOW)]);
      expect(runs.flat()).toEqual([expect.objectContaining({ contactMessages: 1 })]);
      // Later the same Berlin day: done.
      expect(await a.runDue(NOW + 6 * 3_600_000)).toEqual([]);
      // The next day (and at a start-up after a day without any process): due again.
      await seed.contact('older@example.org', daysAgo(90.5));
      const tomorrow = await b.runDue(NOW + DAY_MS);
      expect(tomorrow).toEqual([expect.objectContaining({ contactMessages: 1 })]);
    });

    it('a process that died mid-run leaves the job to another once its lease ran out', async () => {
      const jobs = new KyselyJobRepository(store.db);
      await jobs.schedule(RETENTION_JOB, NOW, NOW);
      expect(
        await jobs.lease(new Map([[RETENTION_JOB, 30 * 60_000]]), newId('dead'), NOW),
      ).toBeDefined();
      expect(await checkoutProcess().runDue(NOW + 60_000)).toEqual([]);
      expect(await checkoutProcess().runDue(NOW + 31 * 60_000)).toHaveLength(1);
    });
  });
});
