import {
  AssetHints,
  deferScripts,
  hydrationScript,
  renderPreloads,
  routeModuleKey,
} from './preload.js';

const manifest = {
  'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_react-B.js'] },
  '_react-B.js': { file: 'assets/react-B.js' },
  '_shared-C.js': { file: 'assets/shared-C.js', css: ['assets/shared-C.css'] },
  'src/app/routes/event.tsx': {
    file: 'assets/event-D.js',
    imports: ['index.html', '_react-B.js', '_shared-C.js'],
    css: ['assets/event-D.css'],
  },
  'generated/fonts/inter-core.woff2': { file: 'assets/inter-core-E.woff2' },
  // The full file serves rare characters only: no preload.
  '../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2': {
    file: 'assets/inter-latin-wght-normal-F.woff2',
  },
};

describe('preload hints', () => {
  it('lists a route chunk with its own imports and CSS, never what the entry already loads', () => {
    const hints = new AssetHints(manifest);
    expect(hints.route(routeModuleKey('event'))).toEqual({
      scripts: ['/assets/event-D.js', '/assets/shared-C.js'],
      styles: ['/assets/event-D.css', '/assets/shared-C.css'],
    });
    expect(hints.fonts).toEqual(['/assets/inter-core-E.woff2']);
    expect(hints.route(routeModuleKey('root'))).toEqual({ scripts: [], styles: [] });
  });

  it('renders escaped tags; route CSS as stylesheets, since the markup is in the HTML', () => {
    const html = renderPreloads({ styles: ['/assets/a"b.css'], fonts: [], image: '/media/x.svg' });
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/a&quot;b.css">');
    expect(html).toContain(
      '<link rel="preload" as="image" href="/media/x.svg" fetchpriority="high">',
    );
  });

  it('takes the scripts out of the head: /hydrate.js requests them once the page has loaded', () => {
    const { html, entry, modules } = deferScripts(
      '<head>\n    <script type="module" crossorigin src="/assets/index-A.js"></script>\n' +
        '    <link rel="modulepreload" crossorigin href="/assets/react-B.js">\n' +
        '    <link rel="stylesheet" crossorigin href="/assets/index-A.css">\n</head>',
    );
    expect(entry).toBe('/assets/index-A.js');
    expect(modules).toEqual(['/assets/react-B.js']);
    expect(html).toBe(
      '<head>\n    <link rel="stylesheet" crossorigin href="/assets/index-A.css">\n</head>',
    );
    expect(hydrationScript('/assets/index-A.js', ['/assets/react-B.js', '/assets/x"y.js'])).toBe(
      '<script defer src="/hydrate.js" data-entry="/assets/index-A.js"' +
        ' data-modules="/assets/react-B.js /assets/x&quot;y.js"></script>',
    );
  });
});
