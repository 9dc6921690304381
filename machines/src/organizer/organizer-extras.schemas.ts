import { z } from 'zod';

// rules "The organizer": the door code and the mail to every holder, between /veranstalter
// and the API.

/** `GET|POST /api/organizer/door-code`: the code in force and whether it can be renewed. */
export const organizerDoorCodeSchema = z.object({
  code: z.string(),
  /** False while CHECKIN_CODE fixes the code: then only a new CHECKIN_CODE changes it. */
  renewable: z.boolean(),
});
export type OrganizerDoorCode = z.infer<typeof organizerDoorCodeSchema>;

export const ORGANIZER_MAIL_SUBJECT_MAX = 120;
export const ORGANIZER_MAIL_TEXT_MAX = 5_000;

/** What the organizer writes to every holder: a subject and plain text, nothing else. */
export const organizerMailDraftSchema = z.object({
  subject: z
    .string({ error: 'Bitte gib einen Betreff ein.' })
    .trim()
    .min(3, 'Bitte gib einen Betreff ein (mindestens 3 Zeichen).')
    .max(
      ORGANIZER_MAIL_SUBJECT_MAX,
      `Der Betreff ist zu lang (höchstens ${ORGANIZER_MAIL_SUBJECT_MAX} Zeichen).`,
    )
    // One line: a line break in a mail header would start another header.
    .refine(
      (subject) => ![...subject].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
      'Der Betreff muss in eine Zeile passen.',
    ),
  text: z
    .string({ error: 'Bitte schreibe eine Nachricht.' })
    .trim()
    .min(10, 'Bitte schreibe eine Nachricht (mindestens 10 Zeichen).')
    .max(
      ORGANIZER_MAIL_TEXT_MAX,
      `Die Nachricht ist zu lang (höchstens ${ORGANIZER_MAIL_TEXT_MAX} Zeichen).`,
    ),
});
export type OrganizerMailDraft = z.input<typeof organizerMailDraftSchema>;

/**
 * `POST /api/organizer/events/:id/mails`: the draft and an id the page drew when it was
 * composed, so a repeated click or a retried request sends it once.
 */
export const organizerMailSendSchema = organizerMailDraftSchema.extend({
  sendId: z
    .string({ error: 'Die Sendung hat keine Kennung. Bitte lade die Seite neu.' })
    .regex(
      /^[A-Za-z0-9_-]{16,64}$/,
      'Die Sendung hat keine gültige Kennung. Bitte lade die Seite neu.',
    ),
});
export type OrganizerMailSend = z.input<typeof organizerMailSendSchema>;

/** `POST /api/organizer/events/:id/mails/preview`: the mail as holders will get it. */
export const organizerMailPreviewSchema = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  /** Addresses it would go to now (one mail per address, however many tickets it holds). */
  recipients: z.number().int(),
});
export type OrganizerMailPreview = z.infer<typeof organizerMailPreviewSchema>;

/** `POST /api/organizer/events/:id/mails/test`: where the test went. */
export const organizerMailTestSchema = z.object({ to: z.string() });
export type OrganizerMailTest = z.infer<typeof organizerMailTestSchema>;

/** A mail sent to the holders of an event, as listed afterwards. */
export const organizerMailSchema = z.object({
  id: z.string(),
  subject: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
  recipients: z.number().int(),
  /** Accepted by the mail server so far. */
  sent: z.number().int(),
});
export type OrganizerMail = z.infer<typeof organizerMailSchema>;

/** `GET /api/organizer/events/:id/mails`: newest first. */
export const organizerMailsSchema = z.object({ mails: z.array(organizerMailSchema) });
export type OrganizerMails = z.infer<typeof organizerMailsSchema>;
