import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { orderSummarySchema } from '@awhh/machines';
import { type Kysely, sql } from 'kysely';
import { backupCli } from '../../src/backup.cli.js';
import { parseBackupConfig, parseDatabaseUrl } from '../../src/config/config.js';
import {
  BackupError,
  backupFileName,
  createBackup,
  decryptBackup,
  encryptBackup,
  restoreBackup,
  rotateBackups,
} from '../../src/store/backup.js';
import { migrateTo } from '../../src/store/migrations.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  DATABASES,
  FakeCatalog,
  freshIp,
  inject,
  line,
  postCheckout,
  settleOutbox,
  waitFor,
} from '../support/checkout-test-app.js';
import { joinConfirmed, mailsTo } from '../waitlist/support/waitlist-test-app.js';
import { SmtpSink } from '../../../tests/support/smtp-sink.js';

jest.setTimeout(120_000);

const CODE = 'GVFW-AFKR-2UXG-AWS2';
const PASSPHRASE = 'korrekt Pferd Batterie Heftklammer';
const GUEST = 'wartend@example.org';

/** Tonight's event with one place: one ticket sells it out, so the waiting list opens. */
function catalog(): FakeCatalog {
  const fake = new FakeCatalog();
  const event = fake.productById(101);
  event.stock_quantity = 1;
  event.meta_data = [
    { key: 'event_date', value: new Date(Date.now() + 3_600_000).toISOString() },
    { key: 'venue', value: 'Strandperle' },
  ];
  return fake;
}

function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'awhh-backup-'));
}

describe.each(DATABASES)('restore drill (%s)', (kind) => {
  let smtp: SmtpSink;
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    for (const drop of drops) await drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await smtp.stop();
  });

  async function store() {
    const db = await createTestDatabase(kind);
    drops.push(db.drop);
    return db;
  }

  /** `shop`: the shop keeps its stock when the site's store is lost; a new one by default. */
  async function start(url: string, shop: FakeCatalog = catalog()) {
    const app = await createTestApp({
      databaseUrl: url,
      catalog: shop,
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'After Work Hamburg <tickets@shop.test>',
        CHECKIN_CODE: CODE,
      },
    });
    apps.push(app);
    return app;
  }

  /** Buys through the test provider; returns the order's tickets. */
  async function pay(app: NestFastifyApplication, email: string, body: unknown) {
    const checkout = await postCheckout(app, body);
    expect(checkout.statusCode).toBe(201);
    const { id, url } = checkout.json() as { id: string; url: string };
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm({ email, name: 'Karla Kundin' }),
    });
    expect(paid.statusCode).toBe(303);
    return orderSummarySchema.parse(
      (await inject(app, { method: 'GET', url: `/api/checkout/session/${id}` })).json(),
    ).tickets;
  }

  function door(app: NestFastifyApplication, method: string, url: string, payload?: unknown) {
    return inject(app, {
      method,
      url,
      headers: { authorization: `Bearer ${CODE}`, 'x-forwarded-for': freshIp() },
      payload,
    });
  }

  it('tickets, the check-in, the waiting list and the outbox survive backup and restore: a due mail goes out once', async () => {
    const before = await store();
    const shop = catalog();
    const app = await start(before.url, shop);

    // A purchase through the test provider; its ticket mail goes out.
    const [ticket] = await pay(app, 'karla@example.org', checkoutBody([line(101, 25, 1)]));

    // Scanned at the door.
    const scanned = await door(app, 'POST', '/api/checkin/scans', {
      scans: [
        { scanId: `backup-${kind}`, token: ticket!.token, scannedAt: Date.now(), device: 'Tür 1' },
      ],
    });
    expect(scanned.json().results).toEqual([{ scanId: `backup-${kind}`, status: 'ok' }]);

    // Sold out: a guest joins the waiting list and confirms.
    await joinConfirmed(app, smtp, GUEST);
    await settleOutbox(app);
    const jobsBefore = await app
      .get(StoreDatabase)
      .db.selectFrom('jobs')
      .select(['id', 'name', 'done_at'])
      .orderBy('id')
      .execute();
    expect(jobsBefore.length).toBeGreaterThan(0);
    const checkedIn = (await door(app, 'GET', '/api/checkin/events/101/tickets')).json().tickets;
    expect(checkedIn[0].checkedInAt).toEqual(expect.any(String));

    // A mail still due when the backup is made: the mail server refuses it for now.
    smtp.rejectNext = 1_000;
    await pay(app, 'spaet@example.org', checkoutBody([line(102, 12.5, 1)]));
    await waitFor(
      async () =>
        (await app
          .get(StoreDatabase)
          .db.selectFrom('jobs')
          .select('id')
          .where('name', '=', 'ticket-mail')
          .where('done_at', 'is', null)
          .where('attempts', '>=', 1)
          .executeTakeFirst()) !== undefined,
    );

    // The backup, encrypted, while the site runs.
    const dir = scratchDir();
    dirs.push(dir);
    const env = { DATABASE_URL: before.url, BACKUP_DIR: dir, BACKUP_PASSPHRASE: PASSPHRASE };
    const printed: string[] = [];
    expect(await backupCli([], env, (l) => printed.push(l))).toBe(0);
    const [file] = readdirSync(dir);
    expect(file).toMatch(
      new RegExp(`^awhh-\\d{8}T\\d{6}Z\\.${kind === 'sqlite' ? 'sqlite' : 'pgdump'}\\.enc$`),
    );
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(printed.join('\n')).not.toContain(PASSPHRASE);

    // The store is lost.
    await app.close();
    apps.splice(apps.indexOf(app), 1);
    await before.drop();
    const mailsSent = smtp.mails.length;
    smtp.rejectNext = 0;

    // A new, empty store (the site started on it once), restored while the site is down.
    const after = await store();
    await (await StoreDatabase.open(parseDatabaseUrl(after.url))).close();
    const restoreEnv = { ...env, DATABASE_URL: after.url };
    expect(await backupCli(['restore', join(dir, file!)], restoreEnv, () => undefined)).toBe(0);

    const restored = await start(after.url, shop);
    const verified = await inject(restored, {
      method: 'GET',
      url: `/api/tickets/${ticket!.token}`,
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ token: ticket!.token, status: 'valid', eventId: 101 });
    expect((await door(restored, 'GET', '/api/checkin/events/101/tickets')).json().tickets).toEqual(
      checkedIn,
    );
    const rescanned = await door(restored, 'POST', '/api/checkin/scans', {
      scans: [
        { scanId: `again-${kind}`, token: ticket!.token, scannedAt: Date.now(), device: 'Tür 2' },
      ],
    });
    expect(rescanned.json().results[0]).toMatchObject({ status: 'already', firstDevice: 'Tür 1' });
    const db = restored.get(StoreDatabase).db;
    expect(
      await db.selectFrom('waitlist_entries').select('email').where('email', '=', GUEST).execute(),
    ).toHaveLength(1);

    // The jobs runner resumes on the restored outbox: the due mail goes out once, nothing
    // done is done again.
    await settleOutbox(restored, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mailsTo(smtp, 'spaet@example.org')).toHaveLength(1);
    expect(smtp.mails).toHaveLength(mailsSent + 1);
    expect(
      await db
        .selectFrom('jobs')
        .select(['id', 'name', 'done_at'])
        .where(
          'id',
          'in',
          jobsBefore.map((job) => job.id),
        )
        .orderBy('id')
        .execute(),
    ).toEqual(jobsBefore);

    // A second restore over the store that now holds tickets is refused.
    const refused: string[] = [];
    expect(await backupCli(['restore', join(dir, file!)], restoreEnv, (l) => refused.push(l))).toBe(
      1,
    );
    expect(refused.join('\n')).toMatch(/--force/);
  });

  it('refuses a wrong passphrase and a store with orders, unless --force', async () => {
    const source = await store();
    await (await StoreDatabase.open(parseDatabaseUrl(source.url))).close();
    const dir = scratchDir();
    dirs.push(dir);
    const database = parseDatabaseUrl(source.url);
    const file = await createBackup(database, { dir, keep: 14, passphrase: PASSPHRASE });

    const target = await store();
    const targetDb = parseDatabaseUrl(target.url);
    await expect(
      restoreBackup(targetDb, file, { passphrase: 'ein ganz anderes Passwort', force: false }),
    ).rejects.toThrow(/wrong BACKUP_PASSPHRASE/);
    await expect(restoreBackup(targetDb, file, { passphrase: null, force: false })).rejects.toThrow(
      /encrypted: set BACKUP_PASSPHRASE/,
    );

    // An order in the target store (a checkout begun): refused, then overwritten with --force.
    const app = await start(target.url);
    expect((await postCheckout(app, checkoutBody([line(102, 12.5, 1)]))).statusCode).toBe(201);
    await app.close();
    apps.splice(apps.indexOf(app), 1);
    await expect(
      restoreBackup(targetDb, file, { passphrase: PASSPHRASE, force: false }),
    ).rejects.toThrow(BackupError);
    await restoreBackup(targetDb, file, { passphrase: PASSPHRASE, force: true });
    const check = await StoreDatabase.open(targetDb);
    expect(await check.db.selectFrom('orders').select('id').execute()).toEqual([]);
    await check.close();
  });

  it('restores a backup of an older version into this one, migrated to the latest', async () => {
    const older = await store();
    const olderDb = parseDatabaseUrl(older.url);
    const open = await StoreDatabase.open(olderDb, { migrate: false });
    await migrateTo(open.db as unknown as Kysely<unknown>, kind, OLDER_VERSION);
    await open.close();
    const dir = scratchDir();
    dirs.push(dir);
    const file = await createBackup(olderDb, { dir, keep: 14, passphrase: null });

    const target = await store();
    const targetDb = parseDatabaseUrl(target.url);
    const fresh = await StoreDatabase.open(targetDb);
    const latest = await migrationNames(fresh);
    await fresh.close();
    expect(latest).toContain(OLDER_VERSION);
    expect(latest.at(-1)).not.toBe(OLDER_VERSION);

    await restoreBackup(targetDb, file, { passphrase: null, force: false });
    const restored = await StoreDatabase.open(targetDb, { migrate: false });
    expect(await migrationNames(restored)).toEqual(latest);
    await restored.close();
  });
});

/** A migration of an earlier release: its store lacks the tables added since. */
const OLDER_VERSION = '2026-11-30-003-scheduled-jobs';

async function migrationNames(store: StoreDatabase): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`select name from kysely_migration order by name`.execute(store.db);
  return rows.map((row) => row.name);
}

describe('backup files', () => {
  let dir: string;
  beforeEach(() => {
    dir = scratchDir();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are named by UTC time and rotated to the newest BACKUP_KEEP, sparing other files', () => {
    expect(backupFileName('sqlite', new Date('2026-06-12T03:15:09.123Z'), false)).toBe(
      'awhh-20260612T031509Z.sqlite',
    );
    expect(backupFileName('postgres', new Date('2026-06-12T03:15:09Z'), true)).toBe(
      'awhh-20260612T031509Z.pgdump.enc',
    );
    for (let day = 1; day <= 5; day += 1) {
      writeFileSync(
        join(dir, backupFileName('sqlite', new Date(Date.UTC(2026, 0, day)), day % 2 === 0)),
        '',
      );
    }
    writeFileSync(join(dir, 'notes.txt'), '');
    writeFileSync(join(dir, 'awhh-handmade.sqlite'), '');
    expect(rotateBackups(dir, 3)).toEqual([
      'awhh-20260102T000000Z.sqlite.enc',
      'awhh-20260101T000000Z.sqlite',
    ]);
    expect(readdirSync(dir).sort()).toEqual([
      'awhh-20260103T000000Z.sqlite',
      'awhh-20260104T000000Z.sqlite.enc',
      'awhh-20260105T000000Z.sqlite',
      'awhh-handmade.sqlite',
      'notes.txt',
    ]);
  });

  it('encrypt and decrypt as a round trip; a wrong passphrase or a changed byte is refused', () => {
    const plain = Buffer.from('SQLite format 3\0 und mehr');
    const sealed = encryptBackup(plain, PASSPHRASE);
    expect(sealed.subarray(0, 8).toString()).toBe('AWHHBK01');
    expect(sealed.includes(plain)).toBe(false);
    expect(decryptBackup(sealed, PASSPHRASE)).toEqual(plain);
    expect(() => decryptBackup(sealed, `${PASSPHRASE}!`)).toThrow(/wrong BACKUP_PASSPHRASE/);
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => decryptBackup(tampered, PASSPHRASE)).toThrow(BackupError);
    expect(() => decryptBackup(plain, PASSPHRASE)).toThrow(/not an encrypted backup/i);
  });

  it('reads BACKUP_DIR, BACKUP_KEEP and BACKUP_PASSPHRASE with their defaults', () => {
    expect(parseBackupConfig({})).toEqual({ dir: './backups', keep: 14, passphrase: null });
    expect(
      parseBackupConfig({
        BACKUP_DIR: '/var/backups/awhh',
        BACKUP_KEEP: '30',
        BACKUP_PASSPHRASE: PASSPHRASE,
      }),
    ).toEqual({ dir: '/var/backups/awhh', keep: 30, passphrase: PASSPHRASE });
    expect(() => parseBackupConfig({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
    expect(() => parseBackupConfig({ BACKUP_PASSPHRASE: 'kurz' })).toThrow(/BACKUP_PASSPHRASE/);
    try {
      parseBackupConfig({ BACKUP_PASSPHRASE: 'kurz' });
    } catch (err) {
      expect(String(err)).not.toContain('kurz');
    }
  });

  it('keeps the newest BACKUP_KEEP of real SQLite backups, each 0600', async () => {
    const database = parseDatabaseUrl(`sqlite:${join(dir, 'store', 'awhh.db')}`);
    await (await StoreDatabase.open(database)).close();
    const backups = join(dir, 'backups');
    for (let i = 0; i < 4; i += 1) {
      await createBackup(
        database,
        { dir: backups, keep: 2, passphrase: null },
        new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      );
    }
    const left = readdirSync(backups).sort();
    expect(left).toEqual(['awhh-20260101T000002Z.sqlite', 'awhh-20260101T000003Z.sqlite']);
    for (const name of left) {
      expect(statSync(join(backups, name)).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(backups, name)).subarray(0, 15).toString()).toBe('SQLite format 3');
    }
  });
});
