// The site's test mailbox (/api/mail-test, on with the test payment provider): what the
// site sent, for the browser journeys to read and follow.

/** A mail as the mailbox lists it, newest first. */
export interface MailSummary {
  id: string;
  to: string;
  subject: string;
}

/** One mail as the mailbox gives it. */
export interface TestMail {
  text: string;
  html: string;
}

/**
 * The newest mail in the test mailbox that `matches`, asked for every 300 ms until it is
 * there (a job sends it within seconds). `count`: waits until that many match, and still
 * gives the newest; `only`: expects it to be the one mail that matches. `what` names the
 * mail in the timeout's error.
 */
export async function newestMail(
  siteUrl: string,
  matches: (mail: MailSummary) => boolean,
  options: { what: string; count?: number; only?: boolean; timeoutMs?: number },
): Promise<TestMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const list = (await (await fetch(`${siteUrl}/api/mail-test/messages`)).json()) as MailSummary[];
    const found = list.filter(matches);
    if (found.length >= (options.count ?? 1)) {
      if (options.only) expect(found).toHaveLength(1);
      return (await (
        await fetch(`${siteUrl}/api/mail-test/messages/${encodeURIComponent(found[0]!.id)}`)
      ).json()) as TestMail;
    }
    if (Date.now() > deadline) throw new Error(`no ${options.what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The text of the newest mail to `to` (among its recipients) whose subject matches. */
export async function mailTo(
  siteUrl: string,
  to: string,
  subject: RegExp,
  options: { count?: number; timeoutMs?: number } = {},
): Promise<string> {
  const mail = await newestMail(siteUrl, (m) => m.to.includes(to) && subject.test(m.subject), {
    ...options,
    what: `mail "${subject}" to ${to}`,
  });
  return mail.text;
}

/** The path of a waiting list's confirm or offer link in a mail's text. */
export function linkIn(text: string, kind: 'confirm' | 'offer'): string {
  const match = new RegExp(`https?://[^\\s]*(/waitlist/${kind}/[A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${kind} link in the mail`);
  return match[1]!;
}

/**
 * The ticket token of the ticket page's link in the one mail to exactly `to` whose subject
 * starts with `subject` (a second such mail fails the test).
 */
export async function linkInMail(siteUrl: string, to: string, subject: string): Promise<string> {
  const mail = await newestMail(siteUrl, (m) => m.to === to && m.subject.startsWith(subject), {
    only: true,
    what: `mail "${subject}" to ${to}`,
  });
  const match = /\/tickets\/([A-Za-z0-9_.-]+)/.exec(mail.text);
  expect(match).not.toBeNull();
  return match![1]!;
}
