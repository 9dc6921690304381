import { Inject, Injectable, Logger } from '@nestjs/common';
import { contactRequestSchema } from '@awhh/machines';
import { parseBody } from '../common/validation.js';
import { ContactRepository } from './contact.port.js';

@Injectable()
export class ContactService {
  private readonly logger = new Logger('Contact');

  constructor(@Inject(ContactRepository) private readonly messages: ContactRepository) {}

  /**
   * Stores a message (rules "/contact"). A filled honeypot (`website`, invisible to
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
    await this.messages.add(message, Date.now());
    return { received: true };
  }
}
