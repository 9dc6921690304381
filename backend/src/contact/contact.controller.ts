import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { RateLimit } from '../common/rate-limit.js';
import { ContactService } from './contact.service.js';

export const CONTACT_RATE_LIMIT = {
  name: 'contact',
  limit: 5,
  windowMs: 10 * 60_000,
  message:
    'Du hast uns gerade mehrere Nachrichten geschickt. Bitte versuche es in ein paar Minuten erneut.',
};

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
