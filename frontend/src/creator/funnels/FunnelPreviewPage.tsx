import { useMemo } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useCustomization } from '../../shared/customization';
import { useFunnel } from '../../shared/data/queries';
import { Loaded } from '../../shared/Loader';
import { ROUTES } from '../../shared/routes';
import { usePageTitle } from '../../shared/usePageTitle';
import { fromResource } from '../editor/document-store';
import { previewPayload } from '../editor/preview';
import { PageHeader } from '../layout/UserLayout';
import { PreviewPlayer } from './PreviewPlayer';

/** funnels/{id}: the owner plays their funnel in the player, inside the app (not counted as a view). */
export const FunnelPreviewPage = () => {
  const { id } = useParams();
  const funnel = useFunnel(id);
  const { customization } = useCustomization();
  usePageTitle(funnel.data ? `Preview: ${funnel.data.title}` : 'Preview', customization.app_name);
  const payload = useMemo(() => (funnel.data ? previewPayload(funnel.data, fromResource(funnel.data), customization) : null), [funnel.data, customization]);
  return (
    <Loaded query={funnel}>
      {(f) => (
        <>
          <PageHeader title={f.title}>
            <Button component={RouterLink} to={ROUTES.FunnelsDashboard}>
              Back to funnels
            </Button>
            <Button variant="outlined" component={RouterLink} to={ROUTES.FunnelEditor(f.id)}>
              Edit
            </Button>
          </PageHeader>
          {payload && payload.videos.length > 0 ? (
            <Box sx={{ maxWidth: 960 }} data-testid="funnel-preview">
              {/* The player every preview uses; a new one for every version of the funnel (no analytics: a preview is not a view). */}
              <PreviewPlayer key={`${f.id}:${f.version}`} payload={payload} />
            </Box>
          ) : (
            <Alert severity="info">
              This funnel has no videos yet.{' '}
              <Button size="small" component={RouterLink} to={ROUTES.FunnelEditor(f.id)}>
                Add videos in the editor
              </Button>
            </Alert>
          )}
        </>
      )}
    </Loaded>
  );
};
