import { Inject, Injectable } from '@nestjs/common';
import { PaymentsPort } from '../checkout/payments/payments.port.js';
import { MailPort } from './mail/mail.port.js';

/** Where the success page points while the test mailbox is open. */
export const MAILBOX_URL = '/mail-test';

/**
 * DESIGN "E-mail": the test mailbox (/mail-test) is open only while payments and mail both
 * run on their embedded defaults; with real payments or real mail it would show buyers'
 * mails to anyone.
 */
@Injectable()
export class TestMailbox {
  readonly enabled: boolean;

  constructor(@Inject(PaymentsPort) payments: PaymentsPort, @Inject(MailPort) mail: MailPort) {
    this.enabled = payments.name === 'test' && mail.name === 'store';
  }
}
