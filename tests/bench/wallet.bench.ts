import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeAppleTestChain } from '../../backend/test/tickets/support/wallet-keys.js';
import { REPO_ROOT } from '../support/site.js';

/**
 * The wallet budget (rules "Wallet passes"): one ticket's signed `.pkpass` built in
 * ≤ 150 ms and ≤ 60 KB. Signed with a chain made for the run (root, WWDR stand-in, pass
 * certificate with an encrypted RSA key), read through the site's own configuration.
 */

export const PKPASS_BUILD_BUDGET_MS = 150;
export const PKPASS_SIZE_BUDGET_KB = 60;
const RUNS = 30;

export interface WalletFigures {
  /** ms per pass built and signed. */
  buildMs: number[];
  /** The pass's size. */
  bytes: number;
}

export async function measureWallet(): Promise<WalletFigures> {
  const chain = makeAppleTestChain();
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(__dirname, 'wallet-pass.mjs'), join(REPO_ROOT, 'backend', 'dist'), String(RUNS)],
      { env: { ...process.env, ...chain.env } },
    );
    const { durations, bytes } = JSON.parse(stdout) as { durations: number[]; bytes: number };
    return { buildMs: durations, bytes };
  } finally {
    chain.remove();
  }
}
