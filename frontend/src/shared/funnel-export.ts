import { downloadFile } from './download';

/** A funnel as a file (its videos' sources, elements, settings and images), saved under the name the server gives: the dashboard's and the editor's Export. */
export const downloadFunnelExport = (funnelId: number | string): Promise<void> => downloadFile(`/api/funnels/${funnelId}/export`, 'funnel.json');
