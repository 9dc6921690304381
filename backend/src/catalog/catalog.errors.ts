/** Why the catalog could not answer; the API turns every kind into 502/503 for visitors. */
export type CatalogErrorKind =
  'auth' | 'not_found' | 'rate_limited' | 'upstream' | 'timeout' | 'network' | 'invalid_response';

/** An upstream (WooCommerce/WordPress) failure, with a message written for the ops log. */
export class CatalogError extends Error {
  constructor(
    readonly kind: CatalogErrorKind,
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CatalogError';
  }

  /** Worth another try: the next attempt may succeed (GETs only). */
  get retryable(): boolean {
    return (
      this.kind === 'timeout' ||
      this.kind === 'network' ||
      this.kind === 'rate_limited' ||
      (this.kind === 'upstream' && (this.status ?? 500) >= 500)
    );
  }
}
