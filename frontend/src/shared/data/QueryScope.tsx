import type { ReactNode } from 'react';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { currentCustomization, fetchCustomization } from '../customization';
import { queryClient } from './client';
import { keys } from './keys';

/**
 * The 'customization' query, answered by the branding store (customization.tsx): a page that
 * invalidates it (a saved customization, the mailer set up) refetches the branding every page reads.
 */
const BrandingQuery = () => {
  useQuery({
    queryKey: keys.customization,
    queryFn: async () => {
      await fetchCustomization();
      return currentCustomization().customization;
    },
    initialData: () => {
      const now = currentCustomization();
      return now.loaded ? now.customization : undefined;
    },
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return null;
};

/**
 * The data layer (react-query) around the pages that fetch with it: the creator area, the plan and
 * payment pages, the admin panel and the modals. It loads with them, so the sign-in pages never
 * download it. Every scope shares the one QueryClient (data/client.ts).
 */
export const QueryScope = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={queryClient}>
    <BrandingQuery />
    {children}
  </QueryClientProvider>
);
