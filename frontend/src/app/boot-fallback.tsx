/** Shown for the moment before the first page's chunk has arrived. */
export function BootFallback() {
  return (
    <div
      role="status"
      aria-busy="true"
      aria-label="Seite wird geladen"
      style={{ minHeight: '100vh' }}
    />
  );
}
