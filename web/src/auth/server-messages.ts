import type { TFunction } from 'i18next';
import { isApiError } from '../api/client';
import type { I18nKey } from '../locales/keys';

// The server answers in English; messages the sign-in screens expect are shown in the UI language.
const KNOWN: Record<string, I18nKey> = {
  'Invalid e-mail or password': 'auth.errors.invalidCredentials',
  'This account is deactivated': 'auth.errors.deactivated',
  'Registration is closed': 'auth.errors.registrationClosed',
};

export function authErrorMessage(error: unknown, t: TFunction): string {
  if (isApiError(error)) {
    if (error.status === 429) return t('auth.errors.rateLimited');
    const known = KNOWN[error.message];
    if (known) return t(known);
    return error.message;
  }
  return t('errors.generic');
}
