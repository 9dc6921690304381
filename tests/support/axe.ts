import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface AxeOptions {
  /** `false`: axe does not enter frames (a sandboxed frame runs no script for it). */
  iframes?: boolean;
  /** A selector axe leaves out, such as a mail preview's frame. */
  exclude?: string;
  /** axe's legacy mode, which skips frames altogether. */
  legacy?: boolean;
}

/**
 * Axe's findings on the page as it is now, one line per rule (`rule: selector, …`), so a
 * test can expect `[]` and a failure names what broke.
 */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (options.exclude !== undefined) builder = builder.exclude(options.exclude);
  if (options.iframes !== undefined) builder = builder.options({ iframes: options.iframes });
  if (options.legacy !== undefined) builder = builder.setLegacyMode(options.legacy);
  const result = await builder.analyze();
  return result.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}
