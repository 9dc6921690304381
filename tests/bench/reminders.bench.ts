import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/site.js';

/**
 * The reminders' budget (rules "Reminders"): the pass that finds the mails due and enqueues
 * one job per kind, event and address (`TicketReminders.sweep`, every 5 minutes) over 2,000
 * tickets ≤ 2 s. Beside it, measured in the same rounds: the same pass again once every job
 * is enqueued (nothing new, what most passes of an evening find), and its floor, the store's
 * read of those tickets alone (`ReminderRepository.validTicketsFrom`). On the built backend
 * over SQLite, in its own process (reminder-sweep.mjs).
 */

export const REMINDER_PASS_BUDGET_MS = 2_000;
export const REMINDER_PASS_TICKETS = 2_000;
const RUNS = 15;

export interface ReminderFigures {
  /** ms per pass that enqueues every address's reminder. */
  pass: number[];
  /** ms per pass that finds them enqueued already. */
  again: number[];
  /** ms per read of the tickets alone. */
  read: number[];
  /** Jobs one pass enqueued (one per address). */
  jobs: number;
}

export async function measureReminders(dataDir: string): Promise<ReminderFigures> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      join(__dirname, 'reminder-sweep.mjs'),
      join(REPO_ROOT, 'backend', 'dist'),
      String(RUNS),
      String(REMINDER_PASS_TICKETS),
    ],
    {
      cwd: REPO_ROOT,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        ...process.env,
        MODULES: 'checkout',
        DATABASE_URL: `sqlite:${join(dataDir, 'awhh-reminders.db')}`,
        PUBLIC_URL: 'http://127.0.0.1:3000',
        STATIC_DIR: 'off',
        LOG_LEVEL: 'error',
        METRICS_PORT: 'off',
        WOOCOMMERCE_URL: '',
        STRIPE_SECRET_KEY: '',
        REMINDER_HOURS_BEFORE: '24',
      },
    },
  );
  return JSON.parse(stdout) as ReminderFigures;
}
