import { MailboxRepository } from './mail.port.js';
import { MailPort, type OutgoingMail } from './mail.port.js';

/** The embedded default: mails kept in the store and shown on /mail-test (rules "E-mail"). */
export class StoreMailboxAdapter extends MailPort {
  readonly name = 'store' as const;

  constructor(
    private readonly mailbox: MailboxRepository,
    private readonly from: string,
  ) {
    super();
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.mailbox.add({ ...mail, from: this.from }, Date.now());
  }
}
