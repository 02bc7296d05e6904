import { QueryClient } from '@tanstack/react-query';
import { ApiError, onForgetAccountData } from '../api';

/** A 4xx answer will not change by asking again; a network failure or a 5xx may. */
const worthRetrying = (failures: number, error: unknown): boolean => {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 2;
};

/**
 * The one QueryClient of the web app, shared with react-admin (`<Admin queryClient>`), so a
 * mutation in either part refreshes what the other shows. Module-level, as react-admin's demo
 * keeps it: the lazily loaded admin chunk imports the same instance.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: worthRetrying,
      staleTime: 30_000,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

/** Forgets what one account fetched, so the next one never sees it (the branding is everyone's). */
const forgetAccountData = (): void => {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'customization' });
};
onForgetAccountData(forgetAccountData);
