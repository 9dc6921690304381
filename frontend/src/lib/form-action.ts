import { type ActionFunctionArgs, type SubmitTarget, useFetcher } from 'react-router';
import { type ApiErrorBody, ApiRequestError, errorText } from './api-client';

// The site's forms that post to the API (contact, waiting list, ticket resend, an offer's
// decline, unsubscribing) all work one way: the form checks its fields, a react-router
// fetcher sends them to the action of the route the form is on, the action calls the API,
// and the form shows one status. A fetcher neither navigates nor reloads the page's data.
// Only in route chunks: `/` loads none of this.

/**
 * What a form's action answers: the API's data, or the API's error as it came
 * (`{statusCode, error, message}`, the message in German, rules "Errors"). Never thrown: a
 * refusal belongs beside the form, not on the error page.
 */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ApiErrorBody };

/** The one status of a form: not sent yet, on its way, done (with the answer), refused. */
export type FormStatus<T> =
  | { state: 'idle' }
  | { state: 'submitting' }
  | { state: 'done'; data: T }
  | { state: 'error'; statusCode: number; message: string };

/** Runs an action's API call; a failure becomes the answer's error. */
export async function apiAction<T>(call: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await call() };
  } catch (error) {
    return {
      ok: false,
      error:
        error instanceof ApiRequestError
          ? error.body
          : { statusCode: 0, error: 'Error', message: errorText(error) },
    };
  }
}

/** A route action for a form that sends JSON (`useApiForm`): `call` gets the body. */
export function jsonAction<B, T>(call: (body: B, args: ActionFunctionArgs) => Promise<T>) {
  return async (args: ActionFunctionArgs): Promise<ActionResult<T>> =>
    apiAction(async () => call((await args.request.json()) as B, args));
}

/**
 * A form's fetcher and its status. `submit` sends the body as JSON to the action of the
 * route the form is on (the route exports it); `reset` returns to `idle`.
 */
export function useApiForm<T>() {
  const fetcher = useFetcher<ActionResult<T>>();
  const result = fetcher.data;
  const status: FormStatus<T> =
    fetcher.state === 'submitting'
      ? { state: 'submitting' }
      : !result
        ? { state: 'idle' }
        : result.ok
          ? { state: 'done', data: result.data }
          : { state: 'error', statusCode: result.error.statusCode, message: result.error.message };
  return {
    status,
    submit: (body: object = {}) =>
      fetcher.submit(body as SubmitTarget, {
        method: 'post',
        encType: 'application/json',
        // The page's own data stays as it is: the form shows the answer.
        defaultShouldRevalidate: false,
      }),
    reset: fetcher.reset,
  };
}
