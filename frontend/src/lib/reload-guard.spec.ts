import { claimReload, RELOAD_GUARD_KEY, RELOAD_GUARD_MS } from './reload-guard';

beforeEach(() => sessionStorage.clear());

describe('page-reload guard (rules "Page-reload guard", §9: 10 s)', () => {
  it('allows one reload, then none within 10 seconds, then again', () => {
    const t0 = 1_000_000;
    expect(claimReload(t0)).toBe(true);
    expect(sessionStorage.getItem(RELOAD_GUARD_KEY)).toBe(String(t0));
    expect(claimReload(t0 + 1)).toBe(false);
    expect(claimReload(t0 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(claimReload(t0 + RELOAD_GUARD_MS)).toBe(true);
  });
});
