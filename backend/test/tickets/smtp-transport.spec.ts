import { networkInterfaces } from 'node:os';
import { ConfigError, parseSmtpUrl } from '../../src/config/config.js';
import {
  isLoopbackHost,
  SmtpMailAdapter,
  smtpTransportOptions,
} from '../../src/mail/smtp-mail.adapter.js';
import type { OutgoingMail } from '../../src/mail/mail.port.js';
import { SmtpSink } from '../../../tests/support/smtp-sink.js';

// smtp:// must never send the password or a ticket mail in plain text to another machine:
// STARTTLS is required unless the server is on this machine or the URL says `?tls=off`.

/**
 * An address of this machine that is not loopback, so a sink there is "a server elsewhere"
 * to the adapter. Without a network interface, the IPv4-mapped form of 127.0.0.1 serves:
 * it reaches the same sink but is not spelled as loopback.
 */
function otherAddress(): string {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal);
  return external?.address ?? '::ffff:127.0.0.1';
}

function mail(): OutgoingMail {
  return {
    id: 'order-smtp-transport',
    to: 'gast@example.org',
    subject: 'Deine Tickets',
    html: '<p>Ticket</p>',
    text: 'Ticket',
    attachments: [],
  };
}

/** smtp://user:password@host:port of the sink, with an optional query. */
function urlOf(sink: SmtpSink, query = ''): string {
  const url = new URL(sink.url);
  url.username = 'tickets';
  url.password = 'geheim-123';
  return `${url.href.replace(/\/$/, '')}${query}`;
}

describe('SMTP transport options', () => {
  it('smtp:// to another host requires STARTTLS', () => {
    expect(smtpTransportOptions('smtp://u:p@mail.example:587')).toMatchObject({
      host: 'mail.example',
      port: 587,
      secure: false,
      requireTLS: true,
      auth: { user: 'u', pass: 'p' },
    });
    expect(smtpTransportOptions('smtp://192.0.2.10').requireTLS).toBe(true);
    expect(smtpTransportOptions('smtp://[2001:db8::1]:25')).toMatchObject({
      host: '2001:db8::1',
      requireTLS: true,
    });
  });

  it('smtp:// to this machine uses STARTTLS when offered, as before', () => {
    for (const url of [
      'smtp://127.0.0.1:2525',
      'smtp://127.1.2.3',
      'smtp://localhost',
      'smtp://[::1]:25',
    ]) {
      const options = smtpTransportOptions(url);
      expect(options.requireTLS).toBe(false);
      expect(options.ignoreTLS).toBeUndefined();
    }
    expect(isLoopbackHost('localhost.example.org')).toBe(false);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });

  it('?tls=off is the one explicit way to send in plain text; smtps:// is TLS from the start', () => {
    expect(smtpTransportOptions('smtp://relay.internal:25?tls=off')).toMatchObject({
      host: 'relay.internal',
      port: 25,
      ignoreTLS: true,
    });
    expect(smtpTransportOptions('smtp://relay.internal:25?tls=off').requireTLS).toBeUndefined();
    expect(smtpTransportOptions('smtps://u:p%40ss@mail.example')).toMatchObject({
      port: 465,
      secure: true,
      auth: { user: 'u', pass: 'p@ss' },
    });
  });

  it('SMTP_URL refuses query parameters that would override the TLS options', () => {
    for (const raw of [
      'smtp://mail.example?requireTLS=false',
      'smtp://mail.example?ignoreTLS=true',
      'smtp://mail.example?tls=on',
      'smtp://mail.example?tls=off&secure=false',
      'smtps://mail.example?tls=off',
    ]) {
      expect(() => parseSmtpUrl(raw)).toThrow(ConfigError);
    }
    expect(parseSmtpUrl('smtp://mail.example:25?tls=off')).toBe('smtp://mail.example:25?tls=off');
  });
});

describe('SMTP server without STARTTLS on another machine', () => {
  let sink: SmtpSink;
  let adapter: SmtpMailAdapter | null = null;

  beforeEach(async () => {
    sink = await new SmtpSink({ host: otherAddress(), auth: true }).start();
  });

  afterEach(async () => {
    adapter?.close();
    adapter = null;
    await sink.stop();
  });

  it('gets neither the password nor the mail', async () => {
    adapter = new SmtpMailAdapter(urlOf(sink), 'tickets@shop.test', 'shop.test');
    await expect(adapter.send(mail())).rejects.toThrow(/STARTTLS/);
    expect(sink.connections).toBe(1);
    expect(sink.logins).toEqual([]);
    expect(sink.mails).toEqual([]);
  });

  it('gets both when the URL says ?tls=off', async () => {
    adapter = new SmtpMailAdapter(urlOf(sink, '?tls=off'), 'tickets@shop.test', 'shop.test');
    await adapter.send(mail());
    expect(sink.logins).toEqual([{ username: 'tickets', password: 'geheim-123' }]);
    expect(sink.mails.map((m) => m.subject)).toEqual(['Deine Tickets']);
  });
});

describe('SMTP server without STARTTLS on this machine', () => {
  it('gets the mail, as a local relay or the test sink does', async () => {
    const sink = await new SmtpSink({ auth: true }).start();
    const adapter = new SmtpMailAdapter(urlOf(sink), 'tickets@shop.test', 'shop.test');
    try {
      await adapter.send(mail());
      expect(sink.mails).toHaveLength(1);
    } finally {
      adapter.close();
      await sink.stop();
    }
  });
});
