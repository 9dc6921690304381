import { Body, Controller, Get, Header, Inject, Param, Post, Res } from '@nestjs/common';
import { STYLES } from './test-provider.page.js';
import { type TestProviderAnswer, TestProviderService } from './test-provider.service.js';

interface Reply {
  code(status: number): Reply;
  header(name: string, value: string): Reply;
  type(contentType: string): Reply;
  send(body?: string): Reply;
}

function send(reply: Reply, answer: TestProviderAnswer): void {
  if (answer.kind === 'redirect') {
    reply.code(303).header('location', answer.location).send();
    return;
  }
  reply
    .code(answer.status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .send(answer.html);
}

/** The test provider's hosted payment page (rules "Payments", embedded default). */
@Controller('checkout/test-provider')
export class TestProviderController {
  constructor(@Inject(TestProviderService) private readonly provider: TestProviderService) {}

  @Get('assets/page.css')
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'public, max-age=3600')
  styles(): string {
    return STYLES;
  }

  @Get(':sessionId')
  async show(@Param('sessionId') sessionId: string, @Res() reply: Reply): Promise<void> {
    send(reply, await this.provider.show(sessionId));
  }

  @Post(':sessionId/pay')
  async pay(
    @Param('sessionId') sessionId: string,
    @Body() body: unknown,
    @Res() reply: Reply,
  ): Promise<void> {
    send(reply, await this.provider.pay(sessionId, body));
  }

  @Post(':sessionId/refund')
  async refund(@Param('sessionId') sessionId: string, @Res() reply: Reply): Promise<void> {
    send(reply, await this.provider.refund(sessionId));
  }

  @Post(':sessionId/refund/partial')
  async refundPart(
    @Param('sessionId') sessionId: string,
    @Body() body: unknown,
    @Res() reply: Reply,
  ): Promise<void> {
    send(reply, await this.provider.refundPart(sessionId, body));
  }

  @Post(':sessionId/dispute')
  async dispute(@Param('sessionId') sessionId: string, @Res() reply: Reply): Promise<void> {
    send(reply, await this.provider.dispute(sessionId, 'opened'));
  }

  @Post(':sessionId/dispute/won')
  async disputeWon(@Param('sessionId') sessionId: string, @Res() reply: Reply): Promise<void> {
    send(reply, await this.provider.dispute(sessionId, 'won'));
  }

  @Post(':sessionId/cancel')
  async cancel(@Param('sessionId') sessionId: string, @Res() reply: Reply): Promise<void> {
    send(reply, await this.provider.cancel(sessionId));
  }
}
