import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { Envelope } from '../api';
import { useAlert } from '../alerts';

export interface ApiMutationOptions<TVars, TData> {
  mutationFn: (vars: TVars) => Promise<Envelope<TData>>;
  /** What the change makes stale: every query under these key prefixes is fetched again. */
  invalidates?: readonly QueryKey[];
  /** Show the server's success message (default true). */
  announce?: boolean;
  onSuccess?: (data: TData, vars: TVars) => void | Promise<void>;
}

/**
 * A change through the API: on success the server's message shows in the alert banner and what
 * it made stale is fetched again. A failure is left to the caller: a form maps it onto its
 * fields (`useApiForm`), an action shows it (`mutate` alerts it).
 */
export const useApiMutation = <TVars = void, TData = unknown>(options: ApiMutationOptions<TVars, TData>) => {
  const client = useQueryClient();
  const alert = useAlert();
  const mutation = useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (res, vars) => {
      if (options.announce !== false && res.message) alert.success(res.message);
      await Promise.all((options.invalidates ?? []).map((queryKey) => client.invalidateQueries({ queryKey })));
      await options.onSuccess?.(res.data, vars);
    },
  });
  /** Runs it as a button's action: a failure goes to the alert banner. */
  const run = (vars: TVars) => mutation.mutate(vars, { onError: (error) => alert.error(error) });
  return { ...mutation, run };
};
