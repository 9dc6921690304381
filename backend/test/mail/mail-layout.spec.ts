import { escapeHtml } from '@awhh/machines';
import {
  renderConfirmationMail,
  renderOfferMail,
} from '../../src/waitlist/waitlist-mail.templates.js';
import { renderTicketMail } from '../../src/tickets/mail/ticket-mail.templates.js';
import {
  MAIL_COLORS,
  mailButton,
  renderMailLayout,
  renderMailText,
} from '../../src/mail/mail-layout.js';

const PUBLIC_URL = 'https://afterwork.test';
const HOSTILE = `<script>alert("x")</script> & 'Co'`;
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;';

const mails = {
  ticket: renderTicketMail({
    kind: 'order',
    buyerName: HOSTILE,
    orderNumber: 'AW-1001',
    summary: {
      lines: [{ name: HOSTILE, quantity: 2, unitAmount: 2500 }],
      subtotal: 5000,
      discount: 500,
      total: 4500,
      couponCode: 'SOMMER',
    },
    tickets: [
      {
        eventName: 'Afterwork im Hafen',
        tier: 'VIP',
        seat: 1,
        seats: 2,
        startsAt: '2026-11-27T18:30:00.000Z',
        venue: 'Strandkai',
        url: `${PUBLIC_URL}/tickets/abc?x=1&y=2`,
        code: 'K7QM3XPA',
      },
    ],
    publicUrl: PUBLIC_URL,
  }),
  confirmation: renderConfirmationMail({
    lineName: HOSTILE,
    quantity: 2,
    confirmUrl: `${PUBLIC_URL}/waitlist/confirm/c1`,
    unsubscribeUrl: `${PUBLIC_URL}/waitlist/unsubscribe/u1`,
    publicUrl: PUBLIC_URL,
  }),
  offer: renderOfferMail({
    lineName: HOSTILE,
    quantity: 1,
    offerUrl: `${PUBLIC_URL}/waitlist/offer/o1`,
    expiresAt: Date.UTC(2026, 10, 27, 18, 30),
    unsubscribeUrl: `${PUBLIC_URL}/waitlist/unsubscribe/u1`,
    publicUrl: PUBLIC_URL,
  }),
};

describe('the one mail layout', () => {
  it.each(Object.entries(mails))('the %s mail is drawn in it, with its sign-off', (_, mail) => {
    const shell = renderMailLayout({ title: 'T', bodyHtml: '', publicUrl: PUBLIC_URL });
    const [head] = shell.split('<title>');
    expect(mail.html.startsWith(head!)).toBe(true);
    expect(mail.html).toContain(`border-top:4px solid ${MAIL_COLORS.gold}`);
    expect(mail.html).toContain(
      `Bis bald!<br>After Work Hamburg · <a href="${PUBLIC_URL}" style="color:${MAIL_COLORS.gold};">afterwork.test</a>`,
    );
    expect(mail.html.endsWith('</table></td></tr></table></body></html>')).toBe(true);
    expect(mail.text.endsWith(`\n\nBis bald!\nAfter Work Hamburg\n${PUBLIC_URL}\n`)).toBe(true);
  });

  it.each(Object.entries(mails))('the %s mail escapes every value it shows', (_, mail) => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain(ESCAPED);
    expect(mail.html).toContain(`<title>${escapeHtml(mail.subject)}</title>`);
  });

  it('the waiting list names itself in the header and keeps the unsubscribe link (rules "Waiting list")', () => {
    for (const mail of [mails.confirmation, mails.offer]) {
      expect(mail.html).toContain('>AFTER WORK HAMBURG · WARTELISTE</div>');
      expect(mail.html).toContain(`href="${PUBLIC_URL}/waitlist/unsubscribe/u1"`);
      expect(mail.text).toContain(
        `Von der Warteliste abmelden:\n${PUBLIC_URL}/waitlist/unsubscribe/u1`,
      );
    }
    expect(mails.ticket.html).toContain('>AFTER WORK HAMBURG</div>');
    expect(mails.ticket.html).not.toContain('abmelden');
  });

  it('the ticket mail gives each ticket its short code, in the text and the HTML (rules "Tickets and the door")', () => {
    expect(mails.ticket.text).toContain('\n  Ticket-Code: K7QM-3XPA\n');
    expect(mails.ticket.html).toMatch(/Ticket-Code <span [^>]*>K7QM-3XPA<\/span>/);
  });

  it('the button escapes its link and label', () => {
    expect(mailButton('Tickets & mehr', 'https://x.test/?a=1&b="2"')).toContain(
      'href="https://x.test/?a=1&amp;b=&quot;2&quot;"',
    );
    expect(mailButton('Tickets & mehr', 'https://x.test/')).toContain('>Tickets &amp; mehr</a>');
  });

  it('the text version separates paragraphs by a blank line and signs off', () => {
    expect(renderMailText(['Hallo,', 'eins\nzwei'], PUBLIC_URL)).toBe(
      `Hallo,\n\neins\nzwei\n\nBis bald!\nAfter Work Hamburg\n${PUBLIC_URL}\n`,
    );
  });
});
