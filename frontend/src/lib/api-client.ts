// fetch with the API's error shape: every failure becomes an ApiRequestError whose
// message is German and can be shown as is (rules "Errors").

export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  [extra: string]: unknown;
}

export const NETWORK_ERROR_MESSAGE =
  'Der Server ist gerade nicht erreichbar. Bitte prüfe deine Verbindung und versuche es erneut.';

export class ApiRequestError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;

  constructor(body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiRequestError';
    this.status = body.statusCode;
    this.body = body;
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.statusCode === 'number' && typeof v.message === 'string';
}

function fallbackMessage(status: number): string {
  if (status === 404) return 'Das gesuchte Angebot wurde nicht gefunden.';
  if (status === 429) return 'Zu viele Anfragen. Bitte warte einen Moment.';
  if (status >= 500) return 'Beim Server ist ein Fehler aufgetreten. Bitte versuche es erneut.';
  return 'Die Anfrage konnte nicht bearbeitet werden.';
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

export async function apiRequest<T>(url: string, options: RequestOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers:
        options.body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError({
      statusCode: 0,
      error: 'Network Error',
      message: NETWORK_ERROR_MESSAGE,
    });
  }
  const text = await response.text();
  let json: unknown = null;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!response.ok) {
    throw new ApiRequestError(
      isErrorBody(json)
        ? json
        : {
            statusCode: response.status,
            error: response.statusText || 'Error',
            message: fallbackMessage(response.status),
          },
    );
  }
  return json as T;
}

export const apiGet = <T>(url: string, signal?: AbortSignal) => apiRequest<T>(url, { signal });
export const apiPost = <T>(url: string, body: unknown, signal?: AbortSignal) =>
  apiRequest<T>(url, { method: 'POST', body, signal });

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404;
}

export function errorText(error: unknown): string {
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  return 'Etwas ist schiefgelaufen. Bitte versuche es erneut.';
}
