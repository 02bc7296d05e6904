import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api';

/** GET admin/updates/info. */
export interface UpdateInfo {
  current_version: string;
  latest_version: string;
  update_available: boolean;
  license_key: string | null;
  update_info: { version: string };
  applied_version: string | null;
  restart_required: boolean;
  downloaded_version: string | null;
  feed_configured: boolean;
  checked_at: string | null;
  check_error: string | null;
}

export const updateKeys = { info: ['admin', 'updates', 'info'] as const };

/** Asks the update feed each time it is read (the server does), so it is never kept stale. */
export const useUpdateInfo = () =>
  useQuery({ queryKey: updateKeys.info, queryFn: async () => (await api.get<UpdateInfo>('admin/updates/info')).data, staleTime: 0 });
