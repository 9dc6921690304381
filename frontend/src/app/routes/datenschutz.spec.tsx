/** @jest-environment ./test/jsdom-env.cjs */
import { screen, within } from '@testing-library/react';
import { retentionPeriods } from '@awhh/machines';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { Component, loader } from './datenschutz';

function renderPrivacy(personalDataDaysAfterEvent: number) {
  const fetch = mockFetch({
    'GET /api/privacy': { body: retentionPeriods(personalDataDaysAfterEvent) },
  });
  renderRoutes(
    [{ path: '/datenschutz', loader, Component, HydrateFallback: () => null }],
    '/datenschutz',
  );
  return fetch;
}

async function retentionItems(): Promise<string[]> {
  await screen.findByRole('heading', { name: '6. Speicherdauer' });
  const list = await screen.findByRole('list');
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

describe('/datenschutz states the retention periods the erasure job applies', () => {
  it('with the defaults: 7 days unpaid, 90 days after the event, 90 days for messages', async () => {
    renderPrivacy(90);
    const items = await retentionItems();
    expect(items[0]).toMatch(/Nicht bezahlte Bestellungen.*nach 7 Tagen/);
    expect(items[1]).toMatch(/90 Tage nach der letzten Veranstaltung der Bestellung/);
    expect(items[2]).toMatch(/Gerätenamen.*90 Tage nach dem Scan/);
    expect(items[3]).toMatch(/Mails.*90 Tage nach dem Versand/);
    expect(items[4]).toMatch(/Kontaktformular: Nachrichten löschen wir nach 90 Tagen/);
    expect(items[5]).toMatch(/Warteliste: Einträge löschen wir am Tag nach der Veranstaltung/);
  });

  it('with PERSONAL_DATA_DAYS_AFTER_EVENT as configured on the server', async () => {
    const fetch = renderPrivacy(30);
    const items = await retentionItems();
    expect(items[1]).toMatch(/30 Tage nach der letzten Veranstaltung/);
    expect(items[1]).not.toMatch(/90/);
    expect(items[4]).toMatch(/nach 90 Tagen/);
    expect(fetch.calls.map((c) => c.url)).toEqual(['/api/privacy']);
  });
});
