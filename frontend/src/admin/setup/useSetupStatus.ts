import type { SetupStatusResource } from '@branchify/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api';

export const SETUP_STATUS_KEY = ['admin', 'setup'] as const;

/** GET admin/setup: which first-run steps the installation has done. */
export const useSetupStatus = () =>
  useQuery({
    queryKey: SETUP_STATUS_KEY,
    queryFn: async () => (await api.get<SetupStatusResource>('admin/setup')).data,
    // Other screens change what it reads (mailer, Stripe, branding): always read it afresh.
    staleTime: 0,
  });
