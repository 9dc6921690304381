import { Body, Controller, HttpCode, Inject, Injectable, Logger, Post } from '@nestjs/common';
import { contactRequestSchema } from '@awhh/machines';
import { RateLimit } from '../../common/rate-limit.js';
import { parseBody } from '../../common/validation.js';
import { StoreDatabase } from '../../store/store.database.js';

export const CONTACT_RATE_LIMIT = {
  name: 'contact',
  limit: 5,
  windowMs: 10 * 60_000,
  message:
    'Du hast uns gerade mehrere Nachrichten geschickt. Bitte versuche es in ein paar Minuten erneut.',
};

@Injectable()
export class ContactService {
  private readonly logger = new Logger('Contact');

  constructor(@Inject(StoreDatabase) private readonly store: StoreDatabase) {}

  /**
   * Stores a message (DESIGN "/contact"). A filled honeypot (`website`, invisible to
   * people) means a bot: it gets the same 202 as everyone, so it learns nothing, and the
   * message is dropped.
   */
  async receive(body: unknown): Promise<{ received: true }> {
    const honeypot = (body as { website?: unknown } | null)?.website;
    if (typeof honeypot === 'string' && honeypot.trim() !== '') {
      this.logger.log({ msg: 'contact message dropped by honeypot' });
      return { received: true };
    }
    const message = parseBody(contactRequestSchema, body);
    await this.store.db
      .insertInto('contact_messages')
      .values({
        name: message.name,
        email: message.email,
        message: message.message,
        created_at: Date.now(),
      })
      .execute();
    return { received: true };
  }
}

@Controller('contact')
export class ContactController {
  constructor(@Inject(ContactService) private readonly contact: ContactService) {}

  @Post()
  @HttpCode(202)
  @RateLimit(CONTACT_RATE_LIMIT)
  receive(@Body() body: unknown) {
    return this.contact.receive(body);
  }
}
