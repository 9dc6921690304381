import type { EventDetail, MerchDetail } from '@awhh/machines';
import {
  AssetHints,
  renderPreloads,
  routeModuleKey,
  staticRouteModule,
  withLowPriorityScripts,
} from './preload.js';
import { contentPageSnapshot, eventSnapshot, merchSnapshot } from './page-snapshot.js';
import { shellSnapshot, withShellSnapshot } from './shell-snapshot.js';

const manifest = {
  'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_react-B.js'] },
  '_react-B.js': { file: 'assets/react-B.js' },
  '_shared-C.js': { file: 'assets/shared-C.js', css: ['assets/shared-C.css'] },
  'src/app/routes/event.tsx': {
    file: 'assets/event-D.js',
    imports: ['index.html', '_react-B.js', '_shared-C.js'],
    css: ['assets/event-D.css'],
  },
  '../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2': {
    file: 'assets/inter-latin-wght-normal-E.woff2',
  },
};

describe('preload hints', () => {
  it('lists a route chunk with its own imports and CSS, never what the entry already loads', () => {
    const hints = new AssetHints(manifest);
    expect(hints.route(routeModuleKey('event'))).toEqual({
      scripts: ['/assets/event-D.js', '/assets/shared-C.js'],
      styles: ['/assets/event-D.css', '/assets/shared-C.css'],
    });
    expect(hints.fonts).toEqual(['/assets/inter-latin-wght-normal-E.woff2']);
    expect(staticRouteModule('/cart')).toBe('src/app/routes/cart.tsx');
    expect(staticRouteModule('/gibt-es-nicht')).toBeNull();
  });

  it('renders escaped tags; data preloads carry crossorigin so fetch() reuses them', () => {
    const html = renderPreloads({
      scripts: ['/assets/a.js'],
      styles: [],
      fonts: [],
      fetches: ['/api/events/a"b'],
      image: '/media/x.svg',
    });
    expect(html).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/events/a&quot;b">',
    );
    expect(html).toContain(
      '<link rel="preload" as="image" href="/media/x.svg" fetchpriority="high">',
    );
    expect(html).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/a.js">',
    );
  });

  it('lets the entry script and its imports load after the stylesheet and the first-screen image', () => {
    const html = withLowPriorityScripts(
      '<script type="module" crossorigin src="/assets/index-A.js"></script>\n' +
        '<link rel="modulepreload" crossorigin href="/assets/react-B.js">\n' +
        '<link rel="stylesheet" crossorigin href="/assets/index-A.css">',
    );
    expect(html).toContain(
      '<script type="module" fetchpriority="low" crossorigin src="/assets/index-A.js">',
    );
    expect(html).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/react-B.js">',
    );
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-A.css">');
    expect(withLowPriorityScripts(html)).toBe(html);
  });
});

describe('shell snapshot', () => {
  it('puts the unscrolled header (AWHH text, no logo) into the empty root and marks the cart page', () => {
    const html = withShellSnapshot('<body><div id="root"></div></body>', '/cart');
    expect(html).toContain('springen</a><header class="site-header" data-scrolled="false">');
    expect(html).toContain('<span class="site-header__wordmark">AWHH</span>');
    expect(html).not.toContain('<img');
    expect(html).toContain(
      '<a aria-current="page" class="site-header__link site-header__link--active" href="/cart">Warenkorb</a>',
    );
    expect(shellSnapshot('/')).toContain('<a class="site-header__link" href="/cart">');
  });
});

describe('page snapshots (LCP before the script runs)', () => {
  const event = {
    id: 7,
    slug: 'dach',
    name: 'Dach <Abend> & mehr',
    startsAt: '2026-12-01T17:30:00.000Z',
    venue: 'Dachterrasse "Burstah"',
    image: { src: '/media/a.svg?x="1"', alt: 'Lichter <über> der Stadt' },
    past: false,
  } as unknown as EventDetail;

  it('frames the content like the shell: skip link, header, padded main (not on /)', () => {
    const html = withShellSnapshot('<div id="root"></div>', '/events/dach', '<p>x</p>');
    expect(html).toMatch(
      /^<div id="root"><a class="site-skip" href="#main">Zum Inhalt springen<\/a><header /,
    );
    expect(html).toContain(
      '<main id="main" tabindex="-1" class="site-main site-main--padded"><p>x</p></main></div>',
    );
    expect(withShellSnapshot('<div id="root"></div>', '/')).toContain(
      '<main id="main" tabindex="-1" class="site-main"></main>',
    );
  });

  it("renders the event's first screen escaped, with German Berlin date and time and the image size", () => {
    const html = eventSnapshot(event);
    expect(html).toContain('<span class="event-detail__eyebrow">Event</span>');
    expect(html).toContain('<h1>Dach &lt;Abend&gt; &amp; mehr</h1>');
    expect(html).toContain(
      '<img src="/media/a.svg?x=&quot;1&quot;" alt="Lichter &lt;über&gt; der Stadt" width="1280" height="720">',
    );
    expect(html).toContain('<dt>Datum</dt><dd>Dienstag, 1. Dezember 2026</dd>');
    expect(html).toContain('<dt>Beginn</dt><dd>18:30 Uhr</dd>');
    expect(html).toContain('<dt>Location</dt><dd>Dachterrasse &quot;Burstah&quot;</dd>');
    expect(html).not.toContain('<script');
  });

  it('says "Termin folgt" without a date and marks past events', () => {
    const html = eventSnapshot({ ...event, startsAt: null, venue: null, image: null, past: true });
    expect(html).toContain('Vergangenes Event');
    expect(html).toContain('<dd>Termin folgt</dd></div></dl>');
    expect(html).not.toContain('Beginn');
    expect(html).not.toContain('<img');
  });

  it("renders a merch page's first screen escaped: image with its size, eyebrow, title", () => {
    const item = {
      name: 'Cap „Moin“ <neu>',
      image: { src: '/media/cap.svg?a="1"', alt: 'Cap & Stickerei' },
    } as unknown as MerchDetail;
    expect(merchSnapshot(item)).toBe(
      '<div class="container merch-detail"><div class="merch-detail__media">' +
        '<img src="/media/cap.svg?a=&quot;1&quot;" alt="Cap &amp; Stickerei" width="1200" height="800"></div>' +
        '<div class="merch-detail__info"><span class="merch-detail__eyebrow">Merch</span>' +
        '<h1>Cap „Moin“ &lt;neu&gt;</h1></div></div>',
    );
    expect(merchSnapshot({ ...item, image: null })).toContain(
      '<div class="merch-detail__media"></div>',
    );
  });

  it('gives /cart its page heading only (the lines live in the browser)', () => {
    expect(contentPageSnapshot('Warenkorb & <mehr>')).toBe(
      '<div class="container content-page"><header class="content-page__header">' +
        '<h1>Warenkorb &amp; &lt;mehr&gt;</h1></header></div>',
    );
  });
});
