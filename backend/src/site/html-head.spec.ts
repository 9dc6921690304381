import { parseTemplate, renderDocument } from './html-head.js';

describe('page document', () => {
  const template = parseTemplate(
    '<html><head><title>Alt</title><meta name="description" content="alt">' +
      '<meta property="og:title" content="alt"></head><body><div id="root"></div>' +
      '<script type="module" src="/a.js"></script></body></html>',
  );

  it("drops the template's head tags and puts the page's head, markup and data in place", () => {
    const html = renderDocument(template, {
      head: '<title>Neu</title>',
      html: '<h1>Seite</h1>',
      data: '<script type="application/json" id="d">{}</script>',
    });
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).not.toContain('content="alt"');
    expect(html).toContain('<title>Neu</title>\n  </head>');
    expect(html).toContain(
      '<div id="root"><h1>Seite</h1></div><script type="application/json" id="d">{}</script>' +
        '<script type="module" src="/a.js"></script>',
    );
  });

  it('refuses a template without an empty root', () => {
    expect(() => parseTemplate('<html><head></head><body></body></html>')).toThrow(/root/);
  });
});
