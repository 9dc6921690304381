import { CachedResource, STALE_IF_ERROR_MS } from '../../src/catalog/catalog-cache.js';

function fakeLogger() {
  return { log: jest.fn(), warn: jest.fn(), error: jest.fn() };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('CachedResource', () => {
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    now = Date.UTC(2026, 5, 1, 12);
  });

  it('makes one upstream call for any number of concurrent misses (single-flight)', async () => {
    const gate = deferred<string[]>();
    const load = jest.fn(() => gate.promise);
    const sut = new CachedResource(load, { name: 't', ttlMs: 60_000, logger: fakeLogger(), clock });

    const waiting = Array.from({ length: 200 }, () => sut.get());
    gate.resolve(['a']);
    const results = await Promise.all(waiting);

    expect(load).toHaveBeenCalledTimes(1);
    expect(new Set(results).size).toBe(1);
    expect(results[0]).toEqual(['a']);
  });

  it('answers from memory within the TTL', async () => {
    const load = jest.fn(async () => 'v1');
    const sut = new CachedResource(load, { name: 't', ttlMs: 60_000, logger: fakeLogger(), clock });
    await sut.get();
    now += 59_000;
    await expect(sut.get()).resolves.toBe('v1');
    expect(load).toHaveBeenCalledTimes(1);
    expect(sut.status().state).toBe('fresh');
  });

  it('serves the stale value at once after the TTL and revalidates once in the background', async () => {
    let version = 0;
    const gate = deferred<void>();
    const load = jest.fn(async () => {
      version++;
      if (version > 1) await gate.promise;
      return `v${version}`;
    });
    const sut = new CachedResource(load, { name: 't', ttlMs: 60_000, logger: fakeLogger(), clock });
    await sut.get();
    now += 61_000;

    const stale = await Promise.all([sut.get(), sut.get(), sut.get()]);
    expect(stale).toEqual(['v1', 'v1', 'v1']);
    expect(load).toHaveBeenCalledTimes(2);
    expect(sut.status()).toMatchObject({ state: 'stale', refreshing: true });

    gate.resolve();
    await sut.refresh();
    await expect(sut.get()).resolves.toBe('v2');
    expect(sut.status()).toMatchObject({ state: 'fresh', generation: 2 });
  });

  it('keeps the last good value when upstream fails (stale-if-error) and logs it', async () => {
    const logger = fakeLogger();
    const load = jest.fn<Promise<string>, []>().mockResolvedValueOnce('good');
    const sut = new CachedResource(load, { name: 'products', ttlMs: 1_000, logger, clock });
    await sut.get();

    load.mockRejectedValue(new Error('WooCommerce: 503'));
    now += 2 * 60 * 60 * 1000;
    await expect(sut.get()).resolves.toBe('good');
    await expect(sut.refresh()).rejects.toThrow('WooCommerce: 503');
    expect(await sut.get()).toBe('good');

    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({
        msg: expect.stringContaining('serving last good data'),
        resource: 'products',
      }),
    );
    expect(sut.status()).toMatchObject({ state: 'stale', lastError: 'WooCommerce: 503' });
  });

  it('waits a few seconds after a failed refresh before asking upstream again', async () => {
    const load = jest.fn<Promise<string>, []>().mockResolvedValueOnce('good');
    const sut = new CachedResource(load, {
      name: 't',
      ttlMs: 1_000,
      logger: fakeLogger(),
      clock,
      errorRetryMs: 5_000,
    });
    await sut.get();
    load.mockRejectedValue(new Error('down'));
    now += 2_000;
    await sut.get();
    await new Promise((r) => setImmediate(r));
    expect(load).toHaveBeenCalledTimes(2);

    now += 1_000;
    await sut.get();
    expect(load).toHaveBeenCalledTimes(2);

    now += 5_000;
    await sut.get();
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('stops serving data older than 24 hours when upstream is still down', async () => {
    const load = jest.fn<Promise<string>, []>().mockResolvedValueOnce('old');
    const sut = new CachedResource(load, { name: 't', ttlMs: 60_000, logger: fakeLogger(), clock });
    await sut.get();
    load.mockRejectedValue(new Error('still down'));
    now += STALE_IF_ERROR_MS + 1;
    await expect(sut.get()).rejects.toThrow('still down');
    expect(sut.status().state).toBe('expired');
  });

  it('rejects while it has nothing, repeats that failure briefly, then tries again', async () => {
    const load = jest
      .fn<Promise<string>, []>()
      .mockRejectedValueOnce(new Error('first'))
      .mockResolvedValueOnce('second');
    const sut = new CachedResource(load, {
      name: 't',
      ttlMs: 60_000,
      logger: fakeLogger(),
      clock,
      errorRetryMs: 5_000,
    });
    await expect(sut.get()).rejects.toThrow('first');
    expect(sut.status().state).toBe('empty');
    now += 1_000;
    await expect(sut.get()).rejects.toThrow('first');
    expect(load).toHaveBeenCalledTimes(1);
    now += 5_000;
    await expect(sut.get()).resolves.toBe('second');
  });

  it('revalidates after invalidate() even within the TTL', async () => {
    let n = 0;
    const sut = new CachedResource(async () => ++n, {
      name: 't',
      ttlMs: 60_000,
      logger: fakeLogger(),
      clock,
    });
    await sut.get();
    sut.invalidate();
    expect(sut.status().state).toBe('stale');
    expect(await sut.get()).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(await sut.get()).toBe(2);
    expect(sut.status().state).toBe('fresh');
  });
});
