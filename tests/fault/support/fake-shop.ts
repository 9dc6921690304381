import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBackend, type BackendProcess } from '../../support/backend.js';
import { FakeStripe } from '../../support/fake-stripe.js';
import type { FakeWooCommerce } from '../../support/fake-woocommerce.js';

/**
 * A shop wired to fakes: the given fake WooCommerce, a fake Stripe, and the backend's
 * configuration pointing at both with its own SQLite file. `start` may be called again
 * after a kill to restart on the same database (the outbox tests do).
 */
export interface FakeShop {
  woo: FakeWooCommerce;
  stripe: FakeStripe;
  dataDir: string;
  env: Record<string, string>;
  start: (options?: { port?: number }) => Promise<BackendProcess>;
  close: () => Promise<void>;
}

export async function openFakeShop(
  woo: FakeWooCommerce,
  name: string,
  extraEnv: Record<string, string> = {},
): Promise<FakeShop> {
  const stripe = new FakeStripe();
  await Promise.all([woo.start(), stripe.start()]);
  const dataDir = mkdtempSync(join(tmpdir(), `awhh-${name}-`));
  const env = {
    ...woo.env,
    ...stripe.env,
    DATABASE_URL: `sqlite:${join(dataDir, 'awhh.db')}`,
    STATIC_DIR: '',
    ...extraEnv,
  };
  let site: BackendProcess | null = null;
  return {
    woo,
    stripe,
    dataDir,
    env,
    start: async (options) => {
      site = await startBackend(env, options);
      return site;
    },
    close: async () => {
      await site?.kill('SIGTERM');
      await Promise.all([woo.stop(), stripe.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
