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

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface StoredMailSummary {
  id: string;
  to: string;
  subject: string;
  createdAt: number;
  attachments: { filename: string; contentType: string; size: number }[];
}

export interface StoredMail extends StoredMailSummary {
  from: string;
  html: string;
  text: string;
}

/** The embedded mailbox of /mail-test (rules "E-mail"). */
export abstract class MailboxRepository {
  /** Idempotent by id: a mail stored twice is kept once. */
  abstract add(
    mail: Omit<StoredMail, 'attachments' | 'createdAt'> & { attachments: MailAttachment[] },
    now: number,
  ): Promise<void>;
  /** Newest first. */
  abstract list(limit: number): Promise<StoredMailSummary[]>;
  abstract find(id: string): Promise<StoredMail | undefined>;
  abstract attachment(id: string, index: number): Promise<MailAttachment | undefined>;
}
