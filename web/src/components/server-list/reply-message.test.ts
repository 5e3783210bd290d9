import { afterEach, describe, expect, it } from 'vitest';
import i18next from '../../locales/i18n';
import { replyMessage } from './server-list';

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('replyMessage', () => {
  it('shows a server reply in the user language by its code, with its count', async () => {
    await i18next.changeLanguage('fr');
    expect(replyMessage({ message: '3 users deleted successfully', code: 'users_deleted', count: 3 })).toBe(
      '3 utilisateurs supprimés',
    );
    expect(replyMessage({ message: 'Client created successfully', code: 'client_created', data: {} })).toBe('Client créé');
    await i18next.changeLanguage('it');
    expect(replyMessage({ message: 'User activated', code: 'user_activated' })).toBe('Utente attivato');
  });

  it("falls back to the server's text for an unknown code, and to nothing without a message", async () => {
    await i18next.changeLanguage('fr');
    expect(replyMessage({ message: 'Something new happened', code: 'something_new_happened' })).toBe('Something new happened');
    expect(replyMessage({ message: 'Old server reply' })).toBe('Old server reply');
    expect(replyMessage(null)).toBeUndefined();
    expect(replyMessage({ data: {} })).toBeUndefined();
  });
});
