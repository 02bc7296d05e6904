import { useId, useState, type ReactElement } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
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
import MoreVertIcon from '@mui/icons-material/MoreVert';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { FunnelSummaryResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useQuickNotice } from '../../shared/dialogs';
import { downloadFunnelExport } from '../../shared/funnel-export';
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
import { useNarrow } from '../../shared/useNarrow';
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
  const exportFile = (funnel: FunnelSummaryResource) => void downloadFunnelExport(funnel.id).catch((error: unknown) => alert.error(error));
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

interface FunnelAction {
  /** What it does, in a word (the table's tooltip, the menu's item). */
  title: string;
  /** Its accessible name in the table, naming the funnel. */
  label: string;
  icon: ReactElement;
  run: () => void;
}

/** Everything a funnel's row offers: edit, preview, analytics, share, settings, export, duplicate, delete. The table and the phone's menu both list these. */
const rowActions = (f: FunnelSummaryResource, actions: FunnelActions): FunnelAction[] => [
  { title: 'Edit', label: `Edit ${f.title}`, icon: <EditIcon />, run: () => actions.navigate(ROUTES.FunnelEditor(f.id)) },
  { title: 'Preview', label: `Preview ${f.title}`, icon: <VisibilityIcon />, run: () => actions.navigate(ROUTES.FunnelPreview(f.id)) },
  { title: 'Analytics', label: `Analytics of ${f.title}`, icon: <InsightsIcon />, run: () => actions.navigate(`/funnels/${f.id}/analytics`) },
  { title: 'Share', label: `Share ${f.title}`, icon: <ShareIcon />, run: () => actions.openShare(f) },
  { title: 'Settings', label: `Update ${f.title}`, icon: <TuneIcon />, run: () => actions.openUpdate(f) },
  { title: 'Export', label: `Export ${f.title}`, icon: <FileDownloadIcon />, run: () => actions.exportFile(f) },
  { title: 'Duplicate', label: `Duplicate ${f.title}`, icon: <ContentCopyIcon />, run: () => actions.duplicate(f) },
  { title: 'Delete', label: `Delete ${f.title}`, icon: <DeleteIcon />, run: () => actions.remove(f) },
];

/** The funnel's title, a link to its editor. */
const FunnelTitle = ({ funnel: f }: { funnel: FunnelSummaryResource }) => (
  <Link component={RouterLink} to={ROUTES.FunnelEditor(f.id)} underline="hover" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
    {f.title}
  </Link>
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
              <FunnelTitle funnel={f} />
              {f.description && (
                <Typography variant="body2" color="text.secondary" noWrap sx={{ maxWidth: 420 }}>
                  {f.description}
                </Typography>
              )}
            </TableCell>
            <TableCell>{f.total_videos ?? 0}</TableCell>
            <TableCell>{formatDate(f.updated_at ?? f.created_at)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {rowActions(f, actions).map((a) => (
                <IconAction key={a.title} title={a.title} label={a.label} onClick={a.run}>
                  {a.icon}
                </IconAction>
              ))}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </TableContainer>
);

/** One button ("Actions for …") opening a menu of everything the table's row offers; Escape closes it and focus returns to the button. */
const FunnelActionsMenu = ({ funnel, actions }: { funnel: FunnelSummaryResource; actions: FunnelActions }) => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const open = Boolean(anchor);
  return (
    <>
      <IconButton
        id={`${id}-button`}
        aria-label={`Actions for ${funnel.title}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <MoreVertIcon />
      </IconButton>
      <Menu
        id={`${id}-menu`}
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': `${id}-button` } }}
      >
        {rowActions(funnel, actions).map((a) => (
          <MenuItem
            key={a.title}
            onClick={() => {
              setAnchor(null);
              a.run();
            }}
          >
            <ListItemIcon>{a.icon}</ListItemIcon>
            <ListItemText>{a.title}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};

/** On a phone: each funnel's title (a link to its editor), what it holds, and its actions in a menu; nothing scrolls sideways. */
const FunnelCards = ({ funnels, actions }: { funnels: readonly FunnelSummaryResource[]; actions: FunnelActions }) => (
  <Paper component="ul" aria-label="Funnels" data-testid="funnel-list" sx={{ listStyle: 'none', m: 0, p: 0 }}>
    {funnels.map((f, i) => {
      const videos = f.total_videos ?? 0;
      return (
        <Box
          component="li"
          key={f.id}
          data-testid="funnel-row"
          sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, py: 1.5, pl: 2, pr: 1, borderTop: i ? 1 : 0, borderColor: 'divider' }}
        >
          <Box sx={{ flex: 1, minWidth: 0, pt: 1 }}>
            <FunnelTitle funnel={f} />
            {f.description && (
              <Typography
                variant="body2"
                color="text.secondary"
                sx={{ overflowWrap: 'anywhere', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
              >
                {f.description}
              </Typography>
            )}
            <Typography variant="body2" color="text.secondary">
              {videos} {videos === 1 ? 'video' : 'videos'} · Updated {formatDate(f.updated_at ?? f.created_at)}
            </Typography>
          </Box>
          <FunnelActionsMenu funnel={f} actions={actions} />
        </Box>
      );
    })}
  </Paper>
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
  // A phone has no room for the table's eight buttons: a list with a menu per funnel.
  const narrow = useNarrow();

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
              {narrow ? <FunnelCards funnels={data.data} actions={actions} /> : <FunnelTable funnels={data.data} actions={actions} />}
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
