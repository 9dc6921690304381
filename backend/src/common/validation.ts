import { z } from 'zod';
import { apiError } from './api-error.js';

// Validation messages reach visitors (rules "Errors": German message); the schemas'
// own custom messages still take precedence over the locale's defaults.
z.config(z.locales.de());

const MISSING_BODY_MESSAGE = 'Die Anfrage braucht einen JSON-Inhalt.';

/** The first issue as one German sentence, prefixed with the field it concerns. */
function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Die Anfrage ist ungültig.';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Parses a request body with a wire schema; 400 with the first issue's message otherwise. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null) throw apiError(400, MISSING_BODY_MESSAGE);
  const result = schema.safeParse(body);
  if (!result.success) throw apiError(400, firstIssueMessage(result.error));
  return result.data;
}
