import type { PublicError } from '../common/api-error.js';

/** Why the catalog could not answer; the API turns every kind into 502/503 for visitors. */
export type CatalogErrorKind =
  | 'auth'
  | 'not_found'
  | 'rate_limited'
  | 'upstream'
  | 'timeout'
  | 'network'
  | 'invalid_response'
  /** The shop refused an order it was handed (a 4xx): sending it again never succeeds. */
  | 'refused';

export const CATALOG_UNAVAILABLE_MESSAGE =
  'Unser Veranstaltungskatalog ist gerade nicht erreichbar. Bitte versuche es in einem Moment erneut.';

/**
 * An upstream (WooCommerce/WordPress) failure. `message` is for the ops log; visitors get
 * 503 with a German message (rules "Errors": upstream failures give 502/503).
 */
export class CatalogError extends Error implements PublicError {
  readonly publicStatus = 503;
  readonly publicMessage = CATALOG_UNAVAILABLE_MESSAGE;

  /** The shop's answer to a refused write (JSON), kept for the adapter; never logged. */
  body?: string;

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
