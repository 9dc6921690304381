import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ticketSchema } from '@awhh/machines';
import jsQRModule from 'jsqr';
import { type PdfTicket, renderTicketsPdf } from '../../src/tickets/ticket-pdf.js';

// jsqr's types declare an ES default export; the package is CommonJS exporting the function.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

// rules "Tickets and the door": the ticket as it prints, read back the way a person and a
// door phone read it: its text as poppler's pdftotext extracts it, its page rendered by
// pdftoppm (how light it is, whether its QR code decodes). The pages go to /tmp to look at.

const PDFTOTEXT = '/usr/bin/pdftotext';
const PDFTOPPM = '/usr/bin/pdftoppm';
const poppler = existsSync(PDFTOTEXT) && existsSync(PDFTOPPM);
if (!poppler) {
  console.warn(
    'poppler-utils is missing: the printed-ticket checks are skipped. Install it with ' +
      '`apt-get install -y poppler-utils` (`npm test` does so through scripts/setup.mjs).',
  );
}
const withPoppler = poppler ? describe : describe.skip;

const TOKEN =
  'eyJhbGciOiJFZERTQSJ9.eyJ0IjoidEdjZy1HdnpRclVvbiIsImUiOjEwMSwicyI6Mn0.' +
  'Zm9yLXRoZS1wcmludGVkLXRpY2tldC10ZXN0LW9ubHktbm90LWEtcmVhbC1zaWduYXR1cmUtYWJjZGVmZ2hpams';

function ticket(extra: Record<string, unknown> = {}): PdfTicket {
  return {
    ticket: ticketSchema.parse({
      id: 'tGcg-GvzQrUon',
      token: TOKEN,
      status: 'valid',
      eventId: 101,
      eventName: 'Sommer-Afterwork auf der MS Hamburg',
      eventSlug: 'sommer-afterwork-ms-hamburg',
      startsAt: '2026-07-10T16:30:00.000Z',
      venue: 'MS Hamburg, Anleger Landungsbrücken 1',
      tier: 'Regulär',
      seat: 2,
      seats: 3,
      holder: 'Karla Kundin',
      orderNumber: '1042',
      code: 'K7QM3XPA',
      ...extra,
    }),
    orderNumber: '1042',
  };
}

withPoppler('the printed ticket (rules "Tickets and the door")', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'awhh-ticket-pdf-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function pdfOf(name: string, t: PdfTicket): Promise<string> {
    const file = join(dir, `${name}.pdf`);
    writeFileSync(file, await renderTicketsPdf([t]));
    return file;
  }

  const textOf = (pdf: string) => execFileSync(PDFTOTEXT, ['-layout', pdf, '-']).toString('utf8');
  const flat = (text: string) => text.replace(/\s+/g, ' ');

  /** The page in grey levels (0 black … 255 white) at `dpi`, and a PNG of it in /tmp. */
  function render(pdf: string, name: string, dpi: number) {
    const base = join(dir, name);
    execFileSync(PDFTOPPM, ['-r', String(dpi), '-gray', '-singlefile', pdf, base]);
    execFileSync(PDFTOPPM, ['-r', '110', '-png', '-singlefile', pdf, `/tmp/${name}`]);
    const pgm = readFileSync(`${base}.pgm`);
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
    const [width, height] = [Number(header[1]), Number(header[2])];
    return { width, height, pixels: pgm.subarray(header[0].length) };
  }

  it('prints the short code large and whole under the QR code, and not the internal id', async () => {
    const pdf = await pdfOf('ticket', ticket());
    const text = textOf(pdf);
    expect(text).toMatch(/^\s*K7QM-3XPA\s*$/m);
    expect(text).toContain('TICKET-CODE');
    expect(text).not.toContain('tGcg-GvzQrUon');
    expect(flat(text)).toContain('Bestellnummer 1042');

    // The QR code above the short code decodes back to the token from a 150 dpi print.
    const page = render(pdf, 'ticket-pdf', 150);
    const rgba = new Uint8ClampedArray(page.width * page.height * 4);
    page.pixels.forEach((grey, i) => {
      rgba.set([grey, grey, grey, 255], i * 4);
    });
    const found = jsQR(rgba, page.width, page.height);
    expect(found?.data).toBe(TOKEN);

    // Under the QR code, and large: its letters at least 18 pt high, about 6 mm on paper.
    const bbox = execFileSync(PDFTOTEXT, ['-bbox', pdf, '-']).toString('utf8');
    const word =
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">K7QM-3XPA<\/word>/.exec(
        bbox,
      );
    expect(word).not.toBeNull();
    const [, , yMin, , yMax] = word!.map(Number);
    expect(yMax! - yMin!).toBeGreaterThanOrEqual(18);
    const qrBottom = (found!.location.bottomLeftCorner.y * 72) / 150;
    expect(yMin!).toBeGreaterThan(qrBottom);
  });

  it('is black on white, printer-friendly: the page is mostly light', async () => {
    const page = render(await pdfOf('light', ticket()), 'ticket-pdf-light', 40);
    const mean = page.pixels.reduce((sum, grey) => sum + grey, 0) / page.pixels.length;
    // The old dark ticket averaged about 40 of 255; white with a QR code stays above 200.
    expect(mean).toBeGreaterThan(200);
  });

  it('wraps a long venue, event name and holder instead of cutting them', async () => {
    const long = ticket({
      eventName: 'Große Sommer-Afterwork mit Live-Band und DJ auf der MS Hamburg am Hafen',
      venue: 'MS Hamburg, Anleger Landungsbrücken 1, Brücke 3 (Eingang über den Ponton)',
      holder: 'Karla-Friederike Kundin-Mustermann',
      tier: 'VIP mit Sektempfang',
    });
    const text = flat(textOf(await pdfOf('long', long)));
    render(join(dir, 'long.pdf'), 'ticket-pdf-long', 40);
    for (const whole of [
      'Große Sommer-Afterwork mit Live-Band und DJ auf der MS Hamburg am Hafen',
      'MS Hamburg, Anleger Landungsbrücken 1, Brücke 3 (Eingang über den Ponton)',
      'Karla-Friederike Kundin-Mustermann',
      'K7QM-3XPA',
    ]) {
      // pdftotext keeps each wrapped line's words; the layout may put columns between them.
      for (const word of whole.split(' ')) expect(text).toContain(word);
    }
    expect(text).not.toContain('…');
    // A venue with the city in it does not get it twice.
    expect(text).not.toMatch(/Hamburg[^,]*, Hamburg\b.*Hamburg, Hamburg/);
  });

  it('a revoked ticket prints "Storniert", no QR code and no short code', async () => {
    const revoked = ticket({ status: 'revoked', code: null });
    const pdf = await pdfOf('revoked', revoked);
    const text = textOf(pdf);
    expect(text).toContain('Storniert');
    expect(text).not.toContain('K7QM');
    expect(text).not.toContain('TICKET-CODE');
    const page = render(pdf, 'ticket-pdf-revoked', 150);
    const rgba = new Uint8ClampedArray(page.width * page.height * 4);
    page.pixels.forEach((grey, i) => rgba.set([grey, grey, grey, 255], i * 4));
    expect(jsQR(rgba, page.width, page.height)).toBeNull();
  });
});
