import { Inject, Injectable } from '@nestjs/common';
import { PaymentsPort } from '../checkout/payments/payments.port.js';
import { AppConfig } from '../config/config.js';
import { MailPort } from './mail/mail.port.js';

/** Where the success page points while the test mailbox is open. */
export const MAILBOX_URL = '/mail-test';

/**
 * rules "E-mail": the test mailbox (/mail-test) is open only while payments and mail both
 * run on their embedded defaults; with real payments or real mail it would show buyers'
 * mails to anyone. Never in production: a public staging site (PAYMENT_PROVIDER=test)
 * would hand every visitor the ticket links of every mail.
 */
@Injectable()
export class TestMailbox {
  readonly enabled: boolean;

  constructor(
    @Inject(PaymentsPort) payments: PaymentsPort,
    @Inject(MailPort) mail: MailPort,
    @Inject(AppConfig) config: AppConfig,
  ) {
    this.enabled = !config.production && payments.name === 'test' && mail.name === 'store';
  }
}
