import { useQueryClient } from '@tanstack/react-query';
import { useRedirect } from 'react-admin';
import { useAlert } from '../../shared/alerts';
import { SETUP_STATUS_KEY } from '../setup/useSetupStatus';

/**
 * What follows a plan change: the server's message in the alert banner, the setup checklist read
 * again (its first step is "a plan exists"), and back to the list. A failure shows its message.
 */
export const usePlanMutationOptions = (message: string) => {
  const alert = useAlert();
  const redirect = useRedirect();
  const client = useQueryClient();
  return {
    onSuccess: async () => {
      alert.success(message);
      await client.invalidateQueries({ queryKey: SETUP_STATUS_KEY });
      redirect('list', 'plans');
    },
    onError: (error: unknown) => alert.error(error),
  };
};
