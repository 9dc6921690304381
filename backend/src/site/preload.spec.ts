import { AssetHints, renderPreloads, routeModuleKey, staticRouteModule } from './preload.js';
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

describe('preload hints (issue 7)', () => {
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
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/a.js">');
  });
});

describe('shell snapshot', () => {
  it('puts the unscrolled header (AWHH text, no logo) into the empty root and marks the cart page', () => {
    const html = withShellSnapshot('<body><div id="root"></div></body>', '/cart');
    expect(html).toContain('<div id="root"><header class="site-header" data-scrolled="false">');
    expect(html).toContain('<span class="site-header__wordmark">AWHH</span>');
    expect(html).not.toContain('<img');
    expect(html).toContain(
      '<a aria-current="page" class="site-header__link site-header__link--active" href="/cart">Warenkorb</a>',
    );
    expect(shellSnapshot('/')).toContain('<a class="site-header__link" href="/cart">');
  });
});
