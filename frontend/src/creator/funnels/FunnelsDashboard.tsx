import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import TuneIcon from '@mui/icons-material/Tune';
import ShareIcon from '@mui/icons-material/Share';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import VisibilityIcon from '@mui/icons-material/Visibility';
import InsightsIcon from '@mui/icons-material/Insights';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { FunnelSummaryResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useQuickNotice } from '../../shared/dialogs';
import { downloadFile } from '../../shared/download';
import { formatDate } from '../../shared/format';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { useFunnelList } from '../../shared/data/queries';
import { SearchField } from '../../shared/inputs/SearchField';
import { IconAction } from '../../shared/IconAction';
import { Loaded } from '../../shared/Loader';
import { useModals } from '../../shared/modals';
import { ROUTES } from '../../shared/routes';
import { useCustomization } from '../../shared/customization';
import { useDebounced } from '../../shared/useDebounced';
import { usePageTitle } from '../../shared/usePageTitle';
import { PageHeader } from '../layout/UserLayout';
import { SubscriptionEndedBanner } from '../billing/ended';
import { FunnelFormModal } from './FunnelFormModal';
import { ImportFunnelModal } from './ImportFunnelModal';
import { ShareFunnelModal } from './ShareFunnelModal';

/** What the dashboard's rows do: create, import, update, share, export, duplicate and delete (after a confirmation) funnels. */
const useFunnelActions = () => {
  const modals = useModals();
  const notice = useQuickNotice();
  const navigate = useNavigate();
  const alert = useAlert();
  const duplicate = useApiMutation({
    mutationFn: (funnel: FunnelSummaryResource) => api.get(`funnels/${funnel.id}/duplicate`),
    invalidates: [keys.funnels.all],
  });
  const removal = useApiMutation({ mutationFn: (funnel: FunnelSummaryResource) => api.delete(`funnels/${funnel.id}`), invalidates: [keys.funnels.all] });

  const openCreate = () =>
    modals.open({
      name: 'create-funnel',
      title: 'Create Funnel',
      render: ({ close }) => <FunnelFormModal close={close} onSaved={(f) => navigate(ROUTES.FunnelEditor(f.id))} />,
    });
  const openImport = () => modals.open({ name: 'import-funnel', title: 'Import Funnel', render: ({ close }) => <ImportFunnelModal close={close} /> });
  /** The funnel as a file (its videos' sources, elements, settings and images), saved under the name the server gives. */
  const exportFile = (funnel: FunnelSummaryResource) =>
    void downloadFile(`/api/funnels/${funnel.id}/export`, 'funnel.json').catch((error: unknown) => alert.error(error));
  const openUpdate = (funnel: FunnelSummaryResource) =>
    modals.open({
      name: 'update-funnel',
      title: 'Update Funnel',
      render: ({ close }) => <FunnelFormModal funnel={funnel} close={close} />,
    });
  const openShare = (funnel: FunnelSummaryResource) =>
    modals.open({ name: 'share-funnel', title: 'Share Funnel', render: ({ close }) => <ShareFunnelModal identifier={funnel.identifier} close={close} /> });
  const remove = (funnel: FunnelSummaryResource) =>
    notice({
      header: 'Delete funnel',
      message: `Delete '${funnel.title}'? Its views and interactions are deleted too. This cannot be undone.`,
      confirmText: 'Delete',
      danger: true,
      onConfirm: async () => {
        await removal.mutateAsync(funnel);
      },
    });
  return { navigate, openCreate, openImport, openUpdate, openShare, exportFile, duplicate: (funnel: FunnelSummaryResource) => duplicate.run(funnel), remove };
};

type FunnelActions = ReturnType<typeof useFunnelActions>;

/** A funnel's buttons: edit, preview, analytics, share, settings, export, duplicate, delete. */
const FunnelRowActions = ({ funnel: f, actions }: { funnel: FunnelSummaryResource; actions: FunnelActions }) => (
  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
    <IconAction title="Edit" label={`Edit ${f.title}`} onClick={() => actions.navigate(ROUTES.FunnelEditor(f.id))}>
      <EditIcon />
    </IconAction>
    <IconAction title="Preview" label={`Preview ${f.title}`} onClick={() => actions.navigate(ROUTES.FunnelPreview(f.id))}>
      <VisibilityIcon />
    </IconAction>
    <IconAction title="Analytics" label={`Analytics of ${f.title}`} onClick={() => actions.navigate(`/funnels/${f.id}/analytics`)}>
      <InsightsIcon />
    </IconAction>
    <IconAction title="Share" label={`Share ${f.title}`} onClick={() => actions.openShare(f)}>
      <ShareIcon />
    </IconAction>
    <IconAction title="Settings" label={`Update ${f.title}`} onClick={() => actions.openUpdate(f)}>
      <TuneIcon />
    </IconAction>
    <IconAction title="Export" label={`Export ${f.title}`} onClick={() => actions.exportFile(f)}>
      <FileDownloadIcon />
    </IconAction>
    <IconAction title="Duplicate" label={`Duplicate ${f.title}`} onClick={() => actions.duplicate(f)}>
      <ContentCopyIcon />
    </IconAction>
    <IconAction title="Delete" label={`Delete ${f.title}`} onClick={() => actions.remove(f)}>
      <DeleteIcon />
    </IconAction>
  </TableCell>
);

const FunnelTable = ({ funnels, actions }: { funnels: readonly FunnelSummaryResource[]; actions: FunnelActions }) => (
  <TableContainer component={Paper}>
    <Table aria-label="Funnels">
      <TableHead>
        <TableRow>
          <TableCell>Title</TableCell>
          <TableCell>Videos</TableCell>
          <TableCell>Updated</TableCell>
          <TableCell align="right">Actions</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {funnels.map((f) => (
          <TableRow key={f.id} data-testid="funnel-row">
            <TableCell>
              <Typography style={{ fontWeight: 600 }}>{f.title}</Typography>
              {f.description && (
                <Typography variant="body2" color="text.secondary" noWrap sx={{ maxWidth: 420 }}>
                  {f.description}
                </Typography>
              )}
            </TableCell>
            <TableCell>{f.total_videos ?? 0}</TableCell>
            <TableCell>{formatDate(f.updated_at ?? f.created_at)}</TableCell>
            <FunnelRowActions funnel={f} actions={actions} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </TableContainer>
);

/** No funnels: none match the search, or an invitation to create the first (or import one). */
const NoFunnels = ({ searching, onCreate, onImport }: { searching: boolean; onCreate: () => void; onImport: () => void }) => (
  <Paper sx={{ p: 6, textAlign: 'center' }} data-testid="funnels-empty">
    <Typography variant="h6" gutterBottom>
      {searching ? 'No funnels match your search.' : 'You have no funnels yet.'}
    </Typography>
    {!searching && (
      <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center', flexWrap: 'wrap' }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate}>
          Create your first funnel
        </Button>
        <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={onImport}>
          Import a funnel file
        </Button>
      </Box>
    )}
  </Paper>
);

export const FunnelsDashboard = () => {
  const { customization } = useCustomization();
  usePageTitle('Funnels', customization.app_name);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const term = useDebounced(search, 500);
  const funnels = useFunnelList({ page, search: term });
  const actions = useFunnelActions();

  return (
    <>
      <PageHeader title="Funnels">
        <SearchField
          margin="none"
          fullWidth={false}
          label="Search funnels"
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
        />
        <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={actions.openImport}>
          Import
        </Button>
        <Button variant="contained" startIcon={<AddIcon />} onClick={actions.openCreate}>
          Create Funnel
        </Button>
      </PageHeader>
      <SubscriptionEndedBanner />
      <Loaded query={funnels}>
        {(data) =>
          data.data.length === 0 ? (
            <NoFunnels searching={Boolean(term)} onCreate={actions.openCreate} onImport={actions.openImport} />
          ) : (
            <>
              <FunnelTable funnels={data.data} actions={actions} />
              {data.meta.last_page > 1 && (
                <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
                  <Pagination count={data.meta.last_page} page={data.meta.current_page} onChange={(_e, p) => setPage(p)} color="primary" />
                </Box>
              )}
            </>
          )
        }
      </Loaded>
    </>
  );
};
