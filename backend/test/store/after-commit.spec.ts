import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PLACES_RELEASED } from '../../src/holds/holds.js';
import { HoldRepository } from '../../src/holds/holds.port.js';
import { JobSignal } from '../../src/jobs/job-signal.js';
import { JobRepository } from '../../src/jobs/jobs.port.js';
import { Store } from '../../src/store/store.port.js';
import {
  createTestApp,
  createTestDatabase,
  DATABASES,
  FakeCatalog,
  resetStore,
} from '../support/checkout-test-app.js';

// docs/architecture.md "After the commit": reactions leave a transaction through the store's
// hook alone: after the commit, never after a rollback, once per key; a job enqueued wakes
// the runner that way, nobody by hand.

describe.each(DATABASES)('the store after the commit (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await createTestApp({ databaseUrl: db.url, catalog: new FakeCatalog() });
    await resetStore(app);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('runs a reaction once the transaction committed, once per key, and none after a rollback', async () => {
    const store = app.get(Store);
    const seen: string[] = [];
    await store.write(async (tx) => {
      tx.afterCommit(() => seen.push('a'), 'same');
      tx.afterCommit(() => seen.push('b'), 'same');
      tx.afterCommit(() => seen.push('c'));
      // Nothing has run while the transaction is open.
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['b', 'c']);

    seen.length = 0;
    await expect(
      store.write(async (tx) => {
        tx.afterCommit(() => seen.push('rolled back'));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(seen).toEqual([]);

    // A reaction that fails leaves the write in place and the others run.
    await store.write(async (tx) => {
      tx.afterCommit(() => {
        throw new Error('a listener failed');
      });
      tx.afterCommit(() => seen.push('after the failure'));
    });
    expect(seen).toEqual(['after the failure']);
  });

  it('a job enqueued in a transaction wakes the runner once, after the commit', async () => {
    const store = app.get(Store);
    const signal = app.get(JobSignal);
    let wakes = 0;
    let wokenInside = false;
    let open = false;
    const spy = jest.spyOn(signal, 'wake').mockImplementation(() => {
      wakes += 1;
      if (open) wokenInside = true;
    });
    try {
      await store.write(async (tx) => {
        open = true;
        const jobs = tx.get(JobRepository);
        await jobs.enqueue({ name: 'after-commit-test', key: 'one', payload: null }, Date.now());
        await jobs.enqueue({ name: 'after-commit-test', key: 'two', payload: null }, Date.now());
        open = false;
      });
      expect(wokenInside).toBe(false);
      expect(wakes).toBe(1);
      // Rolled back: the job is gone and nobody is woken for it.
      await store
        .write(async (tx) => {
          await tx
            .get(JobRepository)
            .enqueue({ name: 'after-commit-test', key: 'three', payload: null }, Date.now());
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(wakes).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('places released in a transaction are published once, after the commit; a rollback publishes nothing', async () => {
    const store = app.get(Store);
    const events = app.get(EventEmitter2);
    let published = 0;
    let open = false;
    let publishedInside = false;
    const listener = () => {
      published += 1;
      if (open) publishedInside = true;
    };
    events.on(PLACES_RELEASED, listener);
    try {
      await store.write(async (tx) => {
        open = true;
        await tx.get(HoldRepository).release('ord_a');
        await tx.get(HoldRepository).release('ord_b');
        open = false;
      });
      expect(publishedInside).toBe(false);
      expect(published).toBe(1);
      await store
        .write(async (tx) => {
          await tx.get(HoldRepository).release('ord_c');
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(published).toBe(1);
    } finally {
      events.off(PLACES_RELEASED, listener);
    }
  });
});
