import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';
import type { MailboxRepository } from './mail.port.js';
import type { MailPort } from './mail.port.js';
import { SmtpMailAdapter } from './smtp-mail.adapter.js';
import { StoreMailboxAdapter } from './store-mailbox.adapter.js';

/** SMTP when SMTP_URL is set (parseConfig checked it and MAIL_FROM); else the embedded mailbox. */
export function createMailAdapter(config: AppConfig, mailbox: MailboxRepository): MailPort {
  if (config.mail.smtpUrl) {
    return new SmtpMailAdapter(
      config.mail.smtpUrl,
      config.mail.from,
      new URL(config.publicUrl).hostname,
    );
  }
  new Logger('Mail').warn(
    'SMTP_URL is not set: mails are kept in the store and shown on /mail-test (Testpostfach)',
  );
  return new StoreMailboxAdapter(mailbox, config.mail.from);
}
