import { STATUS_CODES } from 'node:http';
import { HttpException } from '@nestjs/common';

/** The one error shape of the API (rules "Errors"): `{ statusCode, error, message, ...extra }`. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  [extra: string]: unknown;
}

/** HTTP reason phrase ("Not Found"); the `error` field is for machines, `message` for people. */
export function reasonPhrase(statusCode: number): string {
  return STATUS_CODES[statusCode] ?? 'Error';
}

export function apiErrorBody(
  statusCode: number,
  message: string,
  extra: Record<string, unknown> = {},
): ApiErrorBody {
  return { ...extra, statusCode, error: reasonPhrase(statusCode), message };
}

/**
 * An HttpException whose response body is already the API error shape, so the global
 * filter passes it through unchanged. Use as `throw apiError(404, 'Dieses Event …')`.
 * `message` is German: the UI shows it as is.
 */
export function apiError(
  statusCode: number,
  message: string,
  extra?: Record<string, unknown>,
): HttpException {
  return new HttpException(apiErrorBody(statusCode, message, extra), statusCode);
}

/** German fallbacks for HttpExceptions thrown without a German message (Nest built-ins). */
export const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Die Anfrage ist ungültig.',
  401: 'Dafür ist eine Anmeldung nötig.',
  403: 'Das ist nicht erlaubt.',
  404: 'Diese Adresse gibt es nicht.',
  405: 'Diese Methode ist hier nicht erlaubt.',
  406: 'Dieses Antwortformat können wir nicht liefern.',
  408: 'Die Anfrage hat zu lange gedauert.',
  409: 'Die Anfrage steht im Konflikt mit dem aktuellen Stand.',
  413: 'Der Inhalt der Anfrage ist zu groß.',
  414: 'Die Adresse ist zu lang.',
  415: 'Dieses Format nehmen wir nicht an. Bitte sende JSON.',
  422: 'Die Angaben können wir so nicht verarbeiten.',
  429: 'Zu viele Anfragen. Bitte warte einen Moment und versuche es dann erneut.',
  500: 'Da ist bei uns etwas schiefgelaufen. Bitte versuche es später erneut.',
  502: 'Ein angebundener Dienst antwortet gerade nicht richtig. Bitte versuche es später erneut.',
  503: 'Der Dienst ist gerade nicht erreichbar. Bitte versuche es später erneut.',
  504: 'Ein angebundener Dienst hat zu lange gebraucht. Bitte versuche es später erneut.',
};

export function defaultMessage(statusCode: number): string {
  return (
    DEFAULT_MESSAGES[statusCode] ??
    (statusCode >= 500 ? DEFAULT_MESSAGES[500]! : DEFAULT_MESSAGES[400]!)
  );
}

/**
 * A domain error that knows how it should look to a visitor (e.g. the catalog being
 * unreachable → 503). The global filter answers with these instead of a generic 500.
 */
export interface PublicError {
  publicStatus: number;
  publicMessage: string;
}

export function isPublicError(value: unknown): value is PublicError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PublicError).publicStatus === 'number' &&
    typeof (value as PublicError).publicMessage === 'string'
  );
}
