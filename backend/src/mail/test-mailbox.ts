import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { MailPort } from './mail.port.js';

/** Where the success page points while the test mailbox is open. */
export const MAILBOX_URL = '/mail-test';

/**
 * rules "E-mail": the test mailbox (/mail-test) is open only while payments and mail both
 * run on their embedded defaults; with real payments or real mail it would show buyers'
 * mails to anyone. Never in production: a public staging site (PAYMENT_PROVIDER=test)
 * would hand every visitor the ticket links of every mail.
 *
 * The mail module knows neither payments nor the door: the orders module tells which
 * payments provider runs, the door module contributes the embedded door code the page
 * shows (docs/decisions/0012-modules-by-domain.md).
 */
@Injectable()
export class TestMailbox {
  private readonly mailEmbedded: boolean;
  private paymentsTest = false;
  private doorCode: (() => Promise<string | null>) | null = null;

  constructor(@Inject(MailPort) mail: MailPort, @Inject(AppConfig) config: AppConfig) {
    this.mailEmbedded = !config.production && mail.name === 'store';
  }

  get enabled(): boolean {
    return this.mailEmbedded && this.paymentsTest;
  }

  /** The payments' adapter in this process: `test` opens the mailbox (with embedded mail). */
  paymentsRunOn(provider: string): void {
    this.paymentsTest = provider === 'test';
  }

  /** The embedded door code for /einlass, or null when a real one is set (never shown). */
  showDoorCode(code: () => Promise<string | null>): void {
    this.doorCode = code;
  }

  async embeddedDoorCode(): Promise<string | null> {
    return (await this.doorCode?.()) ?? null;
  }
}
