// rules "Page-reload guard": a lazily loaded page that fails to load (usually a new
// deploy replaced the chunk) reloads the page once; within 10 s it does not reload
// again, and the error reaches the error page instead. rules §9: default 10 seconds.
export const RELOAD_GUARD_KEY = 'awhh.reload-guard';
export const RELOAD_GUARD_MS = 10_000;

function readStamp(storage: Storage): number | null {
  const raw = storage.getItem(RELOAD_GUARD_KEY);
  const n = raw === null ? Number.NaN : Number(raw);
  return Number.isFinite(n) ? n : null;
}

/** True (and the stamp set) when a reload is allowed now. */
export function claimReload(now: number = Date.now()): boolean {
  try {
    const storage = window.sessionStorage;
    const last = readStamp(storage);
    if (last !== null && now - last >= 0 && now - last < RELOAD_GUARD_MS) return false;
    storage.setItem(RELOAD_GUARD_KEY, String(now));
    return true;
  } catch {
    // Without sessionStorage a reload could loop; show the error page instead.
    return false;
  }
}

export function withReloadGuard<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      if (claimReload()) {
        window.location.reload();
        // Keep the router waiting while the page goes away.
        return new Promise<T>(() => {});
      }
      throw error;
    }
  };
}
