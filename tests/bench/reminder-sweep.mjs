// The reminder pass (rules "Reminders") over 2,000 tickets with the built backend, RUNS times
// after a warm-up, beside its floor: reading the same tickets alone. Its own process, like
// wallet-pass.mjs: the backend's build is ES modules, and the figure should not carry the
// benchmark runner's load. The site is made as `npm start` makes it (createApp, the checkout
// side, the demo catalog) on the SQLite file named by DATABASE_URL; its job runner is stopped
// once started, so the pass runs only when measured and the mails it enqueues stay unsent.
// Prints {pass, again, read, jobs} as JSON: ms per pass with every mail still to enqueue, ms
// per pass that finds them enqueued already, ms per read, and the jobs one pass enqueued.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [distDir, runsArg, ticketsArg] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(`${distDir}/${path}`).href);
const { AppConfig } = await load('config/config.js');
const { createApp } = await load('app.factory.js');
const { JobRunner } = await load('jobs/job-runner.js');
const { StoreDatabase } = await load('store/store.database.js');
const { ReminderRepository } = await load('reminders/reminders.port.js');
const { REMINDER_MAIL_JOB, TicketReminders, reminderTimes } = await load('reminders/reminders.js');

const runs = Number(runsArg ?? 15);
const count = Number(ticketsArg ?? 2000);
const HOUR = 3_600_000;
// The demo catalog's rooftop evening (backend/src/catalog/demo/).
const EVENT = 101;

const app = await createApp(AppConfig.fromEnv());
await app.get(JobRunner).onModuleDestroy();
const db = app.get(StoreDatabase).db;
const reminders = app.get(TicketReminders);
const repository = app.get(ReminderRepository);

// Two seats per address, bought two days before, for an event in 30 hours (as the
// reminders' spec seeds them).
const startsAt = Date.now() + 30 * HOUR;
const issuedAt = Date.now() - 48 * HOUR;
const rows = Array.from({ length: count }, (_, i) => ({
  id: `tb${String(i).padStart(6, '0')}`,
  order_id: `ord_bench_${Math.floor(i / 2)}`,
  line_position: 0,
  seat: (i % 2) + 1,
  seats: 2,
  event_id: EVENT,
  variation_id: null,
  event_name: 'Afterwork auf der Dachterrasse',
  event_slug: 'afterwork-dachterrasse',
  starts_at: new Date(startsAt).toISOString(),
  venue: 'Hafenbar, St. Pauli',
  tier: null,
  holder: `Gast ${i}`,
  status: 'valid',
  issued_at: issuedAt,
  revoked_at: null,
  refunded_at: null,
  code: `B${String(i).padStart(9, '0')}`,
  holder_company: null,
  holder_email: `gast${Math.floor(i / 2)}@example.org`,
}));
for (let i = 0; i < rows.length; i += 200) {
  await db
    .insertInto('tickets')
    .values(rows.slice(i, i + 200))
    .execute();
}

const at = reminderTimes(startsAt, 24).reminder.from + 60_000;
const fromIso = new Date(at - 2 * 86_400_000).toISOString();
const clearJobs = () => db.deleteFrom('jobs').where('name', '=', REMINDER_MAIL_JOB).execute();
const timed = async (work) => {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
};

const pass = [];
const again = [];
const read = [];
let jobs = 0;
for (let i = 0; i < runs + 2; i += 1) {
  await clearJobs();
  const first = await timed(() => reminders.sweep(at));
  const repeat = await timed(() => reminders.sweep(at + 60_000));
  const alone = await timed(() => repository.validTicketsFrom(fromIso));
  if (alone.result.length !== count) throw new Error(`read ${alone.result.length} tickets`);
  // The first two rounds warm up (statements, the catalog's cache), not kept.
  if (i < 2) continue;
  jobs = first.result;
  pass.push(first.ms);
  again.push(repeat.ms);
  read.push(alone.ms);
}
await app.close();
process.stdout.write(JSON.stringify({ pass, again, read, jobs }));
