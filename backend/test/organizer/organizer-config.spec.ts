import { parseConfig } from '../../src/config/config.js';
import { organizerCodeCli } from '../../src/organizer-code.cli.js';
import { createTestDatabase } from '../support/checkout-test-app.js';

// rules "The organizer": ORGANIZER_CODE's rules and `npm run organizer-code`.

describe('ORGANIZER_CODE', () => {
  it('rules "The organizer": embedded by default, strong when set, never the door code, never beside WooCommerce, never echoed', () => {
    expect(parseConfig({}).organizerCode).toBeNull();
    expect(parseConfig({ ORGANIZER_CODE: 'B68m-Zwat-6gyt-Cmmb' }).organizerCode).toBe(
      'B68m-Zwat-6gyt-Cmmb',
    );
    for (const weak of ['ORGA-2026', 'Veranstalter Hafen', '2026-1205-1800-99', 'Sommerfest2026']) {
      expect(() => parseConfig({ ORGANIZER_CODE: weak })).toThrow(
        new RegExp(`^Invalid configuration: ORGANIZER_CODE is too weak(?!.*${weak})`),
      );
    }
    expect(() =>
      parseConfig({ ORGANIZER_CODE: '5vcb-Dga3-86tf-Jnb4', CHECKIN_CODE: '5vcb dga3 86tf jnb4' }),
    ).toThrow('Invalid configuration: ORGANIZER_CODE must differ from CHECKIN_CODE');
    expect(() =>
      parseConfig({
        ORGANIZER_CODE: 'B68m-Zwat-6gyt-Cmmb',
        WOOCOMMERCE_URL: 'https://shop.example',
        WOOCOMMERCE_KEY: 'ck_1',
        WOOCOMMERCE_SECRET: 'cs_1',
      }),
    ).toThrow(/^Invalid configuration: ORGANIZER_CODE is for a site without WooCommerce/);
    // Production starts with a strong code or the generated one, never a guessable one.
    expect(() =>
      parseConfig({
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'test',
        MODULES: 'products',
        ORGANIZER_CODE: 'orga2026',
      }),
    ).toThrow(/ORGANIZER_CODE is too weak/);
  });

  it('rules "The organizer": `npm run organizer-code` prints the store\'s code, or says why there is none', async () => {
    const db = await createTestDatabase('sqlite');
    try {
      const printed: string[] = [];
      const print = (line: string) => printed.push(line);
      await organizerCodeCli([], { DATABASE_URL: db.url }, print);
      const first = printed.at(-1)!;
      expect(first).toMatch(
        /^Veranstaltercode für \/veranstalter: [2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/,
      );
      await organizerCodeCli([], { DATABASE_URL: db.url }, print);
      expect(printed.at(-1)).toBe(first);
      await organizerCodeCli(['--new'], {}, print);
      expect(printed.at(-1)).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
      expect(printed.at(-1)).not.toBe(first.split(': ')[1]);
      await organizerCodeCli(
        [],
        { DATABASE_URL: db.url, ORGANIZER_CODE: 'B68m-Zwat-6gyt-Cmmb' },
        print,
      );
      expect(printed.at(-1)).toBe(
        'ORGANIZER_CODE is set: /veranstalter uses that code (it is never printed).',
      );
      await organizerCodeCli([], { WOOCOMMERCE_URL: 'https://shop.example' }, print);
      expect(printed.at(-1)).toMatch(
        /^WOOCOMMERCE_URL is set: the organizer signs in with a WordPress account/,
      );
    } finally {
      await db.drop();
    }
  });
});
