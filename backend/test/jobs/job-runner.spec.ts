import { Logger } from '@nestjs/common';
import { backoffDelay } from '../../src/jobs/backoff.js';
import { type Job, JobHandlers, PermanentJobFailure } from '../../src/jobs/job-handlers.js';
import { JobOptions } from '../../src/jobs/job-options.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { JobSignal } from '../../src/jobs/job-signal.js';
import { logContext, runWithLogContext } from '../../src/common/request-context.js';
import { InMemoryJobRepository, StoreData } from '../support/in-memory-store.js';

// docs/decisions/0011-one-job-runner.md: one runner, one lease, one retry policy; what a job
// does is its handler's, registered by name. The runner over the in-memory store, with the
// clock in the test's hand (`runDue`); the lease on the real stores is covered by the
// checkout, waiting-list and privacy suites.

Logger.overrideLogger(false);

const NOW = Date.parse('2027-06-15T10:00:00Z');

function newRunner() {
  const data = new StoreData();
  const jobs = new InMemoryJobRepository(data);
  const handlers = new JobHandlers();
  const options = Object.assign(new JobOptions(), { baseBackoffMs: 1_000, maxBackoffMs: 8_000 });
  const runner = new JobRunner(jobs, handlers, options, new JobSignal());
  return { data, jobs, handlers, runner };
}

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, less at most a quarter at random', () => {
    const policy = { baseMs: 1_000, maxMs: 8_000 };
    expect([0, 1, 2, 3, 4, 10].map((retry) => backoffDelay(retry, policy, () => 0))).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000, 8_000,
    ]);
    expect(backoffDelay(1, policy, () => 1)).toBe(1_500);
    expect(backoffDelay(-1, policy, () => 0)).toBe(1_000);
  });
});

describe('JobRunner', () => {
  it("names the job on every log line it writes, with its handler's ids, never a request's", async () => {
    const { jobs, handlers, runner, data } = newRunner();
    const contexts: unknown[] = [];
    handlers.register<{ orderId: string; email: string }>('ticket-mail', {
      run: async () => void contexts.push(logContext()),
      describe: (payload) => ({ orderId: payload.orderId, tickets: 2 }),
    });
    await jobs.enqueue(
      {
        name: 'ticket-mail',
        key: 'ord_7',
        payload: { orderId: 'ord_7', email: 'gast@example.org' },
      },
      NOW,
    );
    // Woken while a request is handled: the job is not that request's.
    await runWithLogContext({ requestId: 'anfrage-12345678' }, () => runner.runDue(NOW));
    expect(contexts).toEqual([
      { job: 'ticket-mail', jobId: data.jobs[0]!.id, orderId: 'ord_7', tickets: 2 },
    ]);
  });

  it('runs due jobs in the order they were queued, each once', async () => {
    const { jobs, handlers, runner, data } = newRunner();
    const ran: unknown[] = [];
    handlers.register<{ n: number }>('count', { run: async (job) => void ran.push(job.payload.n) });
    for (const n of [1, 2, 3])
      await jobs.enqueue({ name: 'count', key: `k${n}`, payload: { n } }, NOW);
    await jobs.enqueue({ name: 'count', key: 'k1', payload: { n: 99 } }, NOW);
    await runner.runDue(NOW);
    expect(ran).toEqual([1, 2, 3]);
    expect(data.jobs.every((j) => j.doneAt === NOW)).toBe(true);
    await runner.runDue(NOW + 60_000);
    expect(ran).toEqual([1, 2, 3]);
  });

  it('retries a failure with the growing delay, keeps the error masked, and finishes it later', async () => {
    const { jobs, handlers, runner, data } = newRunner();
    let failing = true;
    const seen: Job[] = [];
    handlers.register('mail', {
      run: async (job) => {
        seen.push(job);
        if (failing) throw new Error('550 <gast@example.org>: Recipient address rejected');
      },
    });
    await jobs.enqueue({ name: 'mail', key: 'ord_1', payload: null }, NOW);
    await runner.runDue(NOW);
    const [job] = data.jobs;
    expect(job).toMatchObject({ attempts: 1, doneAt: null, leaseOwner: null });
    expect(job!.lastError).toBe('550 <[email]>: Recipient address rejected');
    // The first retry waits 750–1000 ms, the second 1.5–2 s.
    expect(job!.nextAttemptAt - NOW).toBeGreaterThanOrEqual(750);
    expect(job!.nextAttemptAt - NOW).toBeLessThanOrEqual(1_000);
    await runner.runDue(NOW + 500);
    expect(seen).toHaveLength(1);
    await runner.runDue(NOW + 1_000);
    expect(job!.attempts).toBe(2);
    expect(job!.nextAttemptAt - (NOW + 1_000)).toBeGreaterThanOrEqual(1_500);
    failing = false;
    await runner.runDue(NOW + 60_000);
    expect(job).toMatchObject({ attempts: 3, doneAt: NOW + 60_000, lastError: null });
  });

  it('ends a job as failed for good when its handler says no retry can succeed, until asked for again', async () => {
    const { jobs, handlers, runner, data } = newRunner();
    let refused = true;
    let runs = 0;
    handlers.register('handoff', {
      run: async () => {
        runs++;
        if (refused) throw new PermanentJobFailure('400 <gast@example.org> refused');
      },
    });
    await jobs.enqueue({ name: 'handoff', key: 'ord_1', payload: null }, NOW);
    await runner.runDue(NOW);
    const [job] = data.jobs;
    expect(job).toMatchObject({ attempts: 1, doneAt: NOW, failedAt: NOW, leaseOwner: null });
    expect(job!.lastError).toBe('400 <[email]> refused');
    // No retry loop: nothing is due any more, however long one waits.
    await runner.runDue(NOW + 24 * 3600_000);
    expect(runs).toBe(1);
    // The cause fixed, one request runs it again.
    refused = false;
    await jobs.enqueueAgain({ name: 'handoff', key: 'ord_1', payload: null }, NOW + 60_000);
    await runner.runDue(NOW + 60_000);
    expect(runs).toBe(2);
    expect(job).toMatchObject({ doneAt: NOW + 60_000, failedAt: null, lastError: null });
  });

  it('leases only the jobs this process has a handler for', async () => {
    const { jobs, handlers, runner, data } = newRunner();
    handlers.register('mine', { run: async () => undefined });
    await jobs.enqueue({ name: 'theirs', key: '1', payload: null }, NOW);
    await jobs.enqueue({ name: 'mine', key: '1', payload: null }, NOW);
    await runner.runDue(NOW);
    expect(data.jobs.map((j) => [j.name, j.attempts, j.doneAt])).toEqual([
      ['theirs', 0, null],
      ['mine', 1, NOW],
    ]);
  });

  it('a recurring job gets its row once, runs when due and reschedules itself', async () => {
    const { handlers, runner, data } = newRunner();
    const runs: number[] = [];
    handlers.recurring('sweep', {
      run: async (now) => void runs.push(now),
      firstRunAt: (now) => now + 1_000,
      nextRunAt: (now) => now + 60_000,
    });
    await runner.runDue(NOW);
    expect(runs).toEqual([]);
    await runner.runDue(NOW + 1_000);
    await runner.runDue(NOW + 2_000);
    expect(runs).toEqual([NOW + 1_000]);
    await runner.runDue(NOW + 61_000);
    expect(runs).toEqual([NOW + 1_000, NOW + 61_000]);
    expect(data.jobs).toHaveLength(1);
    expect(data.jobs[0]).toMatchObject({ name: 'sweep', doneAt: null, attempts: 0 });
  });

  it('one name, one handler', () => {
    const { handlers } = newRunner();
    handlers.register('mail', { run: async () => undefined });
    expect(() =>
      handlers.recurring('mail', { run: async () => undefined, nextRunAt: (n) => n }),
    ).toThrow('job mail has a handler already');
  });
});
