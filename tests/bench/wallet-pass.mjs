// Builds one ticket's Apple Wallet pass with the built backend, RUNS times after a warm-up,
// and prints the durations (ms) and the pass's size (bytes) as JSON. Its own process, like
// pdf-render.mjs: the backend's build is ES modules, and the figure should not carry the
// benchmark runner's load. The APPLE_* variables come from the environment and are read
// by the site's own configuration.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [distDir, runsArg] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(`${distDir}/${path}`).href);
const { parseConfig } = await load('config/config.js');
const { buildApplePass } = await load('tickets/wallet/apple-pass.js');
const apple = parseConfig(process.env).wallet.apple;
if (!apple) throw new Error('the APPLE_* variables are not set');
const runs = Number(runsArg ?? 30);
// A token as long as a real one (EdDSA compact JWS of ticket id, event id and seat).
const token = `eyJhbGciOiJFZERTQSJ9.${'x'.repeat(110)}.${'y'.repeat(86)}`;
const input = {
  ticket: {
    id: 'tkt_bench',
    token,
    status: 'valid',
    eventId: 101,
    eventName: 'Sommer-Afterwork auf der MS Hamburg',
    eventSlug: 'sommer-afterwork-ms-hamburg',
    startsAt: '2026-12-05T18:00:00.000Z',
    venue: 'MS Hamburg, Landungsbrücken',
    tier: 'VIP',
    seat: 1,
    seats: 4,
    holder: 'Karla Kundin',
    orderNumber: '1042',
    code: 'K7QM3XPA',
  },
  ticketUrl: `https://afterwork.example/tickets/${token}`,
  location: { latitude: 53.5452, longitude: 9.9663 },
};
let bytes = 0;
for (let i = 0; i < 5; i += 1) bytes = buildApplePass(apple, input).length;
const durations = [];
for (let i = 0; i < runs; i += 1) {
  const start = performance.now();
  buildApplePass(apple, input);
  durations.push(performance.now() - start);
}
process.stdout.write(JSON.stringify({ durations, bytes }));
