import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { isApiError } from '../api/client';
import { toast } from '../components/snackbar';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** Failures are expected and handled by the screen (e.g. endpoints not deployed yet). */
      silent?: boolean;
    };
  }
}

/** Server data cache. A failed list or get shows "Unexpected error occured" (spec section 8). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent) return;
        if (isApiError(error) && error.status === 401) return;
        toast.error(i18next.t('errors.unexpected'));
      },
    }),
    mutationCache: new MutationCache(),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && count < 1,
      },
    },
  });
}
