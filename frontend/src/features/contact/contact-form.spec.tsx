/** @jest-environment ./test/jsdom-env.cjs */
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { contactAction, ContactForm } from './contact-form';

function renderForm() {
  return renderRoutes(
    [{ path: '/contact', element: <ContactForm />, action: contactAction }],
    '/contact',
  );
}

describe('Contact form (rules "/contact")', () => {
  it('names what is missing beside each field, tied to it, and focuses the first one', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({});
    renderForm();
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));

    const name = screen.getByLabelText('Name');
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Bitte gib deinen Namen ein.');
    expect(screen.getByLabelText('E-Mail')).toHaveAccessibleDescription(
      'Bitte gib eine gültige E-Mail-Adresse ein.',
    );
    expect(screen.getByLabelText('Nachricht')).toHaveAccessibleDescription(
      'Bitte schreib uns mindestens 10 Zeichen.',
    );
    expect(screen.getByRole('checkbox')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it("shows a field's error when the visitor leaves it, but not on the way to the submit button", async () => {
    const user = userEvent.setup();
    mockFetch({});
    renderForm();
    const email = screen.getByLabelText('E-Mail');
    await user.type(email, 'jana@');
    // The message would push the button away under the pointer and the click would be lost.
    fireEvent.blur(email, {
      relatedTarget: screen.getByRole('button', { name: 'Nachricht senden' }),
    });
    expect(email).not.toHaveAttribute('aria-invalid');
    fireEvent.blur(email, { relatedTarget: screen.getByLabelText('Nachricht') });
    expect(email).toHaveAccessibleDescription('Bitte gib eine gültige E-Mail-Adresse ein.');
  });

  it('sends a valid message once and thanks the visitor', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({ 'POST /api/contact': { status: 201, body: { ok: true } } });
    renderForm();
    await user.type(screen.getByLabelText('Name'), 'Jana Peters');
    await user.type(screen.getByLabelText('E-Mail'), 'jana@example.org');
    await user.type(screen.getByLabelText('Nachricht'), 'Gibt es noch Plätze für eine Gruppe?');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-describedby');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));

    await screen.findByText('Danke für deine Nachricht!');
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/api/contact',
        body: {
          name: 'Jana Peters',
          email: 'jana@example.org',
          message: 'Gibt es noch Plätze für eine Gruppe?',
          consent: true,
          website: '',
        },
      },
    ]);
  });
});
