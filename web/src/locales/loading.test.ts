import { afterAll, describe, expect, it, vi } from 'vitest';

// A fresh i18n module (the setup loaded one with every area): what a visit to the sign-in page gets.
async function freshI18n() {
  vi.resetModules();
  const module = await import('./i18n');
  await module.i18nReady;
  return module;
}

describe('loading the catalogues', () => {
  afterAll(async () => {
    // The next file starts from its own setup; leave English with every area, as it found it.
    const { default: i18n, loadAreaCatalogues } = await freshI18n();
    await loadAreaCatalogues();
    await i18n.changeLanguage('en');
  });

  it('the shared strings first, the areas with the signed-in screens, in every language chosen after', async () => {
    localStorage.setItem('i18nextLng', 'fr');
    const { default: i18n, loadAreaCatalogues } = await freshI18n();
    expect(i18n.language).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(i18n.t('auth.signIn')).toBe('Se connecter');
    expect(i18n.exists('users.tabUsers')).toBe(false);

    // A switch on the sign-in page, then the first signed-in screen.
    await i18n.changeLanguage('it');
    expect(document.documentElement.lang).toBe('it');
    await loadAreaCatalogues();
    expect(i18n.t('users.tabUsers')).toBe('Utenti');

    // French was loaded before without the areas: loaded again in full.
    await i18n.changeLanguage('fr');
    expect(i18n.t('users.tabUsers')).toBe('Utilisateurs');
    expect(localStorage.getItem('i18nextLng')).toBe('fr');
  });
});
