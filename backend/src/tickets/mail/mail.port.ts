import type { MailAttachment } from '../../store/store.port.js';

export interface OutgoingMail {
  /**
   * Stable per purpose (the order's ticket mail has one id), so a mail handed over twice
   * after a crash is kept once by the embedded mailbox and recognisable for a receiver.
   */
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
}

/**
 * Mail port (rules "E-mail"): SMTP (`SMTP_URL`) or the embedded mailbox kept in the store
 * and shown on /mail-test. Adapters throw when the mail was not accepted; the outbox then
 * tries again later.
 */
export abstract class MailPort {
  /** `smtp` or `store` (the embedded default). */
  abstract readonly name: 'smtp' | 'store';
  abstract send(mail: OutgoingMail): Promise<void>;
}
