import { jsonForScript, parseTemplate, renderPage, type PageMeta } from './html-head.js';

const page = (over: Partial<PageMeta> = {}): PageMeta => ({
  title: 'Titel',
  description: 'Beschreibung',
  canonical: 'https://example.org/x',
  noindex: false,
  ogType: 'website',
  image: null,
  jsonLd: [],
  ...over,
});

describe('site head injection', () => {
  const template = parseTemplate(
    '<html><head><title>Alt</title><meta name="description" content="alt"></head><body></body></html>',
  );

  it('replaces the template title and description with the page own', () => {
    const html = renderPage(template, page());
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>Titel</title>');
    expect(html).not.toContain('content="alt"');
  });

  it('escapes CMS text in tags and attributes', () => {
    const html = renderPage(template, page({ title: '"><script>alert(1)</script>' }));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('keeps JSON-LD parseable while no text can close the script block', () => {
    const value = { name: '</script><script>alert(1)</script> & \u2028' };
    const html = renderPage(template, page({ jsonLd: [value] }));
    expect(html).not.toContain('</script><script>alert');
    const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(json)).toEqual(value);
    expect(jsonForScript('<')).toBe('"\\u003c"');
  });
});
