// Endpoints of the auth area (token, verify, refresh, me, language switch).
import { api } from './client';
import type {
  ItemReply,
  Language,
  LanguageCode,
  LoginData,
  LoginRequest,
  Profile,
  RegisterRequest,
  RegisterResponse,
  TokenPair,
} from './types';

export const authApi = {
  login: (body: LoginRequest) => api.post<ItemReply<LoginData>>('/auth/token/', body, { anonymous: true }),
  verify: (token: string) => api.post<unknown>('/auth/token/verify/', { token }, { anonymous: true }),
  refresh: (refresh: string) =>
    api.post<ItemReply<{ token: TokenPair }>>('/auth/token/refresh/', { refresh }, { anonymous: true }),
  me: () => api.get<ItemReply<Profile>>('/api/users/me/'),
  register: (body: RegisterRequest) => api.post<RegisterResponse>('/api/users/me/', body, { anonymous: true }),
  languages: () => api.get<{ data: Language[] }>('/api/settings/languges/'),
  switchLanguage: (language: LanguageCode) =>
    api.post<{ message: string; data: { language: LanguageCode } }>('/api/settings/languges/switch/', { language }),
};
