import { mockFetch } from '../../../test/helpers';
import { loadNextEventLink } from './next-event-link';

describe('loadNextEventLink (rules §4)', () => {
  it('applies the shared rule to the product feed: earliest upcoming event wins', async () => {
    const day = 86_400_000;
    mockFetch({
      'GET /api/woocommerce/products': {
        body: [
          {
            id: 3,
            slug: 'vorbei',
            meta_data: [{ key: 'event_date', value: new Date(Date.now() - 9 * day).toISOString() }],
          },
          {
            id: 2,
            slug: 'spaeter',
            meta_data: [{ key: 'event_date', value: new Date(Date.now() + 9 * day).toISOString() }],
          },
          {
            id: 1,
            slug: 'bald',
            meta_data: [{ key: 'event_date', value: new Date(Date.now() + 3 * day).toISOString() }],
          },
        ],
      },
    });
    await expect(loadNextEventLink()).resolves.toBe('/events/bald');
  });
});
