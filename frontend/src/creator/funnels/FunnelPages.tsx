import { Link as RouterLink, useParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useFunnel as useFunnelQuery } from '../../shared/data/queries';
import { Loaded } from '../../shared/Loader';
import { ROUTES } from '../../shared/routes';
import { useCustomization } from '../../shared/customization';
import { usePageTitle } from '../../shared/useDebounced';
import { PageHeader } from '../layout/UserLayout';

const useFunnel = () => {
  const { id } = useParams();
  return useFunnelQuery(id);
};

/** FunnelEditor (funnels/{id}/edit). The timeline editor is its own issue; this page holds its place. */
export const FunnelEditorPage = () => {
  const { customization } = useCustomization();
  usePageTitle('Editor', customization.app_name);
  const funnel = useFunnel();
  return (
    <Loaded query={funnel}>
      {(funnel) => (
        <>
          <PageHeader title={funnel.title}>
            <Button component={RouterLink} to={ROUTES.FunnelsDashboard}>
              Back to funnels
            </Button>
            <Button variant="outlined" href={ROUTES.Player(funnel.identifier)} target="_blank">
              Preview
            </Button>
          </PageHeader>
          <Paper sx={{ p: 4 }} data-testid="funnel-editor">
            <Typography>The editor for this funnel opens here.</Typography>
          </Paper>
        </>
      )}
    </Loaded>
  );
};

/** funnels/{id}: the funnel in the public player. */
export const FunnelPreviewPage = () => {
  const funnel = useFunnel();
  return (
    <Loaded query={funnel}>
      {(funnel) => (
        <>
          <PageHeader title={funnel.title}>
            <Button component={RouterLink} to={ROUTES.FunnelsDashboard}>
              Back to funnels
            </Button>
          </PageHeader>
          <Box sx={{ aspectRatio: '16 / 9', maxWidth: 960 }}>
            <iframe
              title={`${funnel.title} preview`}
              src={ROUTES.Player(funnel.identifier)}
              style={{ border: 0, width: '100%', height: '100%' }}
              allow="autoplay; fullscreen"
            />
          </Box>
        </>
      )}
    </Loaded>
  );
};
