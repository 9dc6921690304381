import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type {
  BlogPost,
  BlogPostSummary,
  EventDetail,
  EventSummary,
  MerchDetail,
  MerchSummary,
  Product,
  Variant,
} from '@awhh/machines';
import { createTestApp } from '../../test/support/test-app.js';
import type { AppConfig } from '../config/config.js';
import { SiteCatalog } from './site-catalog.js';
import { SiteService } from './site.service.js';

// DESIGN "Everything the shop sells": merch pages get their own head, JSON-LD and a place in
// the sitemap, as event pages do; unknown slugs are a 404 page.

const PUBLIC_URL = 'https://awhh.example';

const INDEX_HTML =
  '<!doctype html><html lang="de"><head><title>AWHH</title>' +
  '<meta name="description" content="Vorlage"></head>' +
  '<body><div id="root"></div><script type="module" src="/assets/index-A.js"></script></body></html>';

const MANIFEST = {
  'index.html': { file: 'assets/index-A.js', isEntry: true },
  'src/app/routes/merch.tsx': {
    file: 'assets/merch-M.js',
    imports: ['index.html'],
    css: ['assets/merch-M.css'],
  },
  'src/app/routes/event.tsx': { file: 'assets/event-E.js', imports: ['index.html'] },
};

function builtSite(): string {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-site-'));
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  return dir;
}

function size(id: number, option: string, over: Partial<Variant> = {}): Variant {
  return {
    id,
    name: option,
    attributes: [{ name: 'Größe', option }],
    price: 25,
    regularPrice: 25,
    availability: 'available',
    available: 10,
    ...over,
  };
}

const shirt: MerchDetail = {
  id: 204,
  slug: 'awhh-t-shirt',
  name: 'AWHH T-Shirt',
  image: { src: '/media/demo/merch-tshirt.svg', alt: 'Schwarzes T-Shirt mit goldenem Anker' },
  price: 25,
  regularPrice: 25,
  currency: 'eur',
  availability: 'available',
  available: 35,
  shortDescription: 'Schwarzes Bio-Shirt mit goldenem Anker.',
  variants: [
    size(2041, 'S'),
    size(2043, 'L'),
    size(2044, 'XL', { availability: 'sold_out', available: 0 }),
  ],
  descriptionHtml: '<p>Weiches Bio-Baumwoll-Shirt &amp; Anker.</p>',
};

const mug: MerchDetail = {
  ...shirt,
  id: 202,
  slug: 'awhh-emaille-becher',
  name: 'AWHH Emaille-Becher',
  image: null,
  price: 9.9,
  regularPrice: 12,
  availability: 'few_left',
  available: 6,
  variants: [],
};

const tieredEvent = {
  id: 109,
  slug: 'sommer-afterwork-ms-hamburg',
  name: 'Sommer-Afterwork auf der MS Hamburg',
  image: null,
  price: 35,
  regularPrice: 35,
  currency: 'eur',
  availability: 'few_left',
  available: 44,
  shortDescription: 'Drei Stunden auf der Elbe.',
  startsAt: '2026-07-01T16:00:00.000Z',
  venue: 'MS Hamburg',
  past: false,
  descriptionHtml: '<p>Leinen los.</p>',
  variants: [
    {
      id: 1091,
      name: 'Early Bird',
      attributes: [{ name: 'Ticket', option: 'Early Bird' }],
      price: 25,
      regularPrice: 25,
      availability: 'sold_out',
      available: 0,
    },
    {
      id: 1093,
      name: 'VIP',
      attributes: [{ name: 'Ticket', option: 'VIP' }],
      price: 49,
      regularPrice: 59,
      availability: 'few_left',
      available: 4,
    },
  ],
} satisfies EventDetail;

class FakeCatalog extends SiteCatalog {
  constructor(private readonly items: MerchDetail[]) {
    super();
  }
  async products(): Promise<Product[]> {
    return [];
  }
  async events(): Promise<EventSummary[]> {
    return [tieredEvent];
  }
  async event(slug: string): Promise<EventDetail | null> {
    return slug === tieredEvent.slug ? tieredEvent : null;
  }
  async merch(): Promise<MerchSummary[]> {
    return this.items.map(({ descriptionHtml: _html, ...summary }) => summary);
  }
  async merchItem(slug: string): Promise<MerchDetail | null> {
    return this.items.find((item) => item.slug === slug) ?? null;
  }
  async posts(): Promise<BlogPostSummary[]> {
    return [];
  }
  async post(): Promise<BlogPost | null> {
    return null;
  }
}

type JsonLd = Record<string, unknown> & {
  offers: Record<string, unknown> | Record<string, unknown>[];
};

function jsonLd(html: string): JsonLd[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as JsonLd,
  );
}

describe('merch pages for crawlers (SiteService)', () => {
  let dir: string;
  let site: SiteService;

  beforeAll(() => {
    dir = builtSite();
    site = new SiteService({ publicUrl: PUBLIC_URL } as AppConfig, new FakeCatalog([shirt, mug]));
    expect(site.loadTemplate(dir)).toBe(true);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives /merch/{slug} its title, description, canonical and Open Graph tags', async () => {
    const res = await site.page('/merch/awhh-t-shirt');
    expect(res.status).toBe(200);
    const html = res.body;
    expect(html).toContain('<title>AWHH T-Shirt | After Work Hamburg</title>');
    expect(html).not.toContain('Vorlage');
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/merch/awhh-t-shirt">`);
    expect(html).toContain(`<meta property="og:url" content="${PUBLIC_URL}/merch/awhh-t-shirt">`);
    expect(html).toContain(
      '<meta property="og:title" content="AWHH T-Shirt | After Work Hamburg">',
    );
    expect(html).toContain(
      `<meta property="og:image" content="${PUBLIC_URL}/media/demo/merch-tshirt.svg">`,
    );
    // Sizes still on offer, not the sold-out XL.
    expect(html).toContain(
      '<meta name="description" content="Schwarzes Bio-Shirt mit goldenem Anker. – 25,00 € · Größe S, L">',
    );
    expect(html).not.toContain('name="robots"');
  });

  it('describes a variable product as a Product with one Offer per size', async () => {
    const [ld] = jsonLd((await site.page('/merch/awhh-t-shirt')).body);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'AWHH T-Shirt',
      description: 'Weiches Bio-Baumwoll-Shirt & Anker.',
      url: `${PUBLIC_URL}/merch/awhh-t-shirt`,
      image: [`${PUBLIC_URL}/media/demo/merch-tshirt.svg`],
    });
    const offer = (name: string, sku: string, availability: string) => ({
      '@type': 'Offer',
      name,
      sku,
      url: `${PUBLIC_URL}/merch/awhh-t-shirt`,
      price: '25.00',
      priceCurrency: 'EUR',
      availability: `https://schema.org/${availability}`,
    });
    expect(ld!.offers).toEqual([
      offer('S', '2041', 'InStock'),
      offer('L', '2043', 'InStock'),
      offer('XL', '2044', 'OutOfStock'),
    ]);
  });

  it('gives a simple product one Offer at its sale price; few left is still in stock', async () => {
    const res = await site.page('/merch/awhh-emaille-becher');
    const [ld] = jsonLd(res.body);
    expect(ld!.offers).toEqual({
      '@type': 'Offer',
      url: `${PUBLIC_URL}/merch/awhh-emaille-becher`,
      price: '9.90',
      priceCurrency: 'EUR',
      availability: 'https://schema.org/InStock',
    });
    expect(ld).not.toHaveProperty('image');
    expect(res.body).toContain('<meta name="twitter:card" content="summary">');
  });

  it('paints the first screen and preloads the route chunk, the data and the image', async () => {
    const html = (await site.page('/merch/awhh-t-shirt')).body;
    expect(html).toContain(
      '<div class="container merch-detail"><div class="merch-detail__media">' +
        '<img src="/media/demo/merch-tshirt.svg" alt="Schwarzes T-Shirt mit goldenem Anker" width="1200" height="800"></div>' +
        '<div class="merch-detail__info"><span class="merch-detail__eyebrow">Merch</span>' +
        '<h1>AWHH T-Shirt</h1></div></div>',
    );
    expect(html).toContain(
      '<link rel="preload" as="image" href="/media/demo/merch-tshirt.svg" fetchpriority="high">',
    );
    expect(html).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/merch/awhh-t-shirt">',
    );
    expect(html).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/merch-M.js">',
    );
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/merch-M.css">');
  });

  it('answers an unknown merch slug with the 404 page, kept out of the index', async () => {
    const res = await site.page('/merch/gibt-es-nicht');
    expect(res.status).toBe(404);
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.body).not.toContain('application/ld+json');
    expect((await site.page('/merch/%E0%A4%A')).status).toBe(404);
  });

  it('gives an event one Offer per ticket tier, sold-out tiers included', async () => {
    const [ld] = jsonLd((await site.page('/events/sommer-afterwork-ms-hamburg')).body);
    const url = `${PUBLIC_URL}/events/sommer-afterwork-ms-hamburg`;
    expect(ld!['@type']).toBe('Event');
    expect(ld!.offers).toEqual([
      {
        '@type': 'Offer',
        name: 'Early Bird',
        sku: '1091',
        url,
        price: '25.00',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/SoldOut',
      },
      {
        '@type': 'Offer',
        name: 'VIP',
        sku: '1093',
        url,
        price: '49.00',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/LimitedAvailability',
      },
    ]);
  });

  it('lists the merch pages in the sitemap and preloads /api/merch on /', async () => {
    const sitemap = await site.sitemap();
    expect(sitemap).toContain(`<url><loc>${PUBLIC_URL}/merch/awhh-t-shirt</loc></url>`);
    expect(sitemap).toContain(`<url><loc>${PUBLIC_URL}/merch/awhh-emaille-becher</loc></url>`);
    expect(sitemap).toContain(
      `<url><loc>${PUBLIC_URL}/events/sommer-afterwork-ms-hamburg</loc></url>`,
    );
    expect((await site.page('/')).body).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/merch">',
    );
  });
});

describe('merch pages through the app (demo catalog)', () => {
  let dir: string;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    dir = builtSite();
    app = await createTestApp({ STATIC_DIR: dir, PUBLIC_URL });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the demo T-shirt with what /api/merch/:slug answers, and 404 for an unknown slug', async () => {
    const api = await app.inject({ method: 'GET', url: '/api/merch/awhh-t-shirt' });
    const item = api.json<MerchDetail>();
    const page = await app.inject({ method: 'GET', url: '/merch/awhh-t-shirt' });
    expect(page.statusCode).toBe(200);
    const [ld] = jsonLd(page.body);
    expect(ld!.name).toBe(item.name);
    expect(ld!.offers).toHaveLength(item.variants.length);
    expect((await app.inject({ method: 'GET', url: '/merch/gibt-es-nicht' })).statusCode).toBe(404);
    const sitemap = await app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.body).toContain(`<loc>${PUBLIC_URL}/merch/awhh-t-shirt</loc>`);
  });

  it('answers a malformed page path with the 404 page, a malformed API path with JSON (DESIGN "Errors")', async () => {
    const page = await app.inject({ method: 'GET', url: '/events/%ff' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toMatch(/<html[\s>]/i);
    expect(page.headers['x-robots-tag'] ?? page.body).toMatch(/noindex/);
    const api = await app.inject({ method: 'GET', url: '/api/events/%ff' });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Die Anfrage ist ungültig.',
    });
  });
});
