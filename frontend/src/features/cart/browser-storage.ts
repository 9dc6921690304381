import { createMemoryStorage, type KeyValueStorage } from '@awhh/machines';

let storage: KeyValueStorage | null = null;

/** localStorage when the browser grants it (private modes may throw), else memory. */
export function browserStorage(): KeyValueStorage {
  if (storage) return storage;
  try {
    const local = window.localStorage;
    const probe = '__awhh_probe__';
    local.setItem(probe, probe);
    local.removeItem(probe);
    storage = local;
  } catch {
    storage = createMemoryStorage();
  }
  return storage;
}
