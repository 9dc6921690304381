// Renders one ticket's PDF with the built backend, RUNS times after a warm-up, and prints
// the durations (ms) as JSON. Its own process: the backend's build is ES modules, and the
// figure should not carry the benchmark runner's own load.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [modulePath, runsArg] = process.argv.slice(2);
const { renderTicketsPdf } = await import(pathToFileURL(modulePath).href);
const runs = Number(runsArg ?? 30);
// A token as long as a real one (EdDSA compact JWS of ticket id, event id and seat).
const token = `eyJhbGciOiJFZERTQSJ9.${'x'.repeat(110)}.${'y'.repeat(86)}`;
const ticket = {
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
  },
  orderNumber: '1042',
};
for (let i = 0; i < 5; i += 1) await renderTicketsPdf([ticket]);
const durations = [];
for (let i = 0; i < runs; i += 1) {
  const start = performance.now();
  await renderTicketsPdf([ticket]);
  durations.push(performance.now() - start);
}
process.stdout.write(JSON.stringify(durations));
