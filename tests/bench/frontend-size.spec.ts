import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { measureFrontend, routeName } from './frontend-size.js';

/**
 * A built frontend in miniature, shaped like Vite's output: the entry's preload map
 * (`__vite__mapDeps`) lists a normal page's modules and stylesheets, while a page opened
 * from outside (frontend/vite.config.ts, `resolveDependencies`) lists only its stylesheet.
 */
const FILES: Record<string, string> = {
  'index.html':
    '<!doctype html><html><head>' +
    '<script type="module" crossorigin src="/assets/index-AAAAAAAA.js"></script>' +
    '<link rel="stylesheet" crossorigin href="/assets/index-BBBBBBBB.css">' +
    '</head><body><div id="root"></div></body></html>',
  'assets/index-AAAAAAAA.js':
    'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/home-CCCCCCCC.js",' +
    '"assets/shared-DDDDDDDD.js","assets/feedback-EEEEEEEE.css","assets/home-FFFFFFFF.css"])))' +
    '=>i.map(i=>d[i]);import{r as t}from"./react-GGGGGGGG.js";' +
    'const routes=[{id:`home`,lazy:()=>z(()=>import(`./home-CCCCCCCC.js`),__vite__mapDeps([0,1,2,3]))},' +
    '{id:`ticket`,lazy:()=>z(()=>import(`./ticket-HHHH-HHH.js`).then(e=>e.t),__vite__mapDeps([2]))}];',
  'assets/react-GGGGGGGG.js': 'export const r = "react, shared by every page";'.repeat(20),
  'assets/index-BBBBBBBB.css': 'body{margin:0}',
  'assets/home-CCCCCCCC.js': 'import{s}from"./shared-DDDDDDDD.js";export default "home";',
  'assets/shared-DDDDDDDD.js': 'export const s = "shared by home and ticket";'.repeat(5),
  'assets/feedback-EEEEEEEE.css': '.feedback{color:red}'.repeat(3),
  'assets/home-FFFFFFFF.css': '.home{color:blue}',
  'assets/ticket-HHHH-HHH.js':
    'import{s}from"./shared-DDDDDDDD.js";import{q}from"./qr-IIIIIIII.js";export const t="ticket";',
  'assets/qr-IIIIIIII.js': 'export const q = "the QR code, only the ticket page needs it";',
};

const gz = (file: string) => gzipSync(Buffer.from(FILES[file]!), { level: 9 }).length;

describe('measureFrontend', () => {
  let dist = '';
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'awhh-bench-size-'));
    mkdirSync(join(dist, 'assets'));
    for (const [file, text] of Object.entries(FILES)) writeFileSync(join(dist, file), text);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('names every lazy route by the chunk its import() loads, never by a stylesheet', () => {
    const { routes } = measureFrontend(dist);
    expect(routes.map((r) => [r.route, r.chunk])).toEqual([
      ['home', 'assets/home-CCCCCCCC.js'],
      ['ticket', 'assets/ticket-HHHH-HHH.js'],
    ]);
  });

  it('counts the modules of a page that lists only its stylesheet, not just its CSS', () => {
    const ticket = measureFrontend(dist).routes.find((r) => r.route === 'ticket')!;
    expect(ticket.js).toBe(
      gz('assets/ticket-HHHH-HHH.js') +
        gz('assets/shared-DDDDDDDD.js') +
        gz('assets/qr-IIIIIIII.js'),
    );
    expect(ticket.css).toBe(gz('assets/feedback-EEEEEEEE.css'));
  });

  it('adds what a route brings beyond the entry: its modules and stylesheets', () => {
    const home = measureFrontend(dist).routes.find((r) => r.route === 'home')!;
    expect(home.js).toBe(gz('assets/home-CCCCCCCC.js') + gz('assets/shared-DDDDDDDD.js'));
    expect(home.css).toBe(gz('assets/feedback-EEEEEEEE.css') + gz('assets/home-FFFFFFFF.css'));
  });

  it('counts the home route in the first load, since / renders it at once', () => {
    const sizes = measureFrontend(dist);
    expect(sizes.firstLoadJs).toBe(
      gz('assets/index-AAAAAAAA.js') +
        gz('assets/react-GGGGGGGG.js') +
        gz('assets/home-CCCCCCCC.js') +
        gz('assets/shared-DDDDDDDD.js'),
    );
    expect(sizes.firstLoadCss).toBe(
      gz('assets/index-BBBBBBBB.css') +
        gz('assets/feedback-EEEEEEEE.css') +
        gz('assets/home-FFFFFFFF.css'),
    );
  });
});

describe('routeName', () => {
  it('drops the folder and the hash, which may itself hold a dash', () => {
    expect(routeName('assets/waitlist-offer-BPSRgRK4.js')).toBe('waitlist-offer');
    expect(routeName('assets/impressum-DcQGy-q7.js')).toBe('impressum');
  });
});
