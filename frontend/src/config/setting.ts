/** A build setting, trimmed, or `fallback` when it is unset or blank. */
export function setting(raw: string | undefined, fallback: string): string {
  return raw && raw.trim() !== '' ? raw.trim() : fallback;
}
