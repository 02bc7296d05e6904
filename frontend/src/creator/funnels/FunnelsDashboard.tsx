import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import EditIcon from '@mui/icons-material/Edit';
import TuneIcon from '@mui/icons-material/Tune';
import ShareIcon from '@mui/icons-material/Share';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { api, query, type Paged } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useQuickNotice } from '../../shared/dialogs';
import { formatDate } from '../../shared/format';
import { Loaded, useLoad } from '../../shared/Loader';
import { useModals } from '../../shared/modals';
import { ROUTES } from '../../shared/routes';
import type { FunnelSummary } from '../../shared/types';
import { useCustomization } from '../../shared/customization';
import { useDebounced, usePageTitle } from '../../shared/useDebounced';
import { PageHeader } from '../layout/UserLayout';
import { FunnelFormModal } from './FunnelFormModal';
import { ShareFunnelModal } from './ShareFunnelModal';

export const FunnelsDashboard = () => {
  const { customization } = useCustomization();
  usePageTitle('Funnels', customization.app_name);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const term = useDebounced(search, 500);
  const { state, reload } = useLoad(async () => (await api.get<Paged<FunnelSummary>>(`funnels${query({ page, search: term })}`)).data, [page, term]);
  const modals = useModals();
  const notice = useQuickNotice();
  const alert = useAlert();
  const navigate = useNavigate();

  const openCreate = () =>
    modals.open({
      name: 'create-funnel',
      title: 'Create Funnel',
      render: ({ close }) => <FunnelFormModal close={close} onSaved={(f) => navigate(ROUTES.FunnelEditor(f.id))} />,
    });
  const openUpdate = (funnel: FunnelSummary) =>
    modals.open({
      name: 'update-funnel',
      title: 'Update Funnel',
      render: ({ close }) => <FunnelFormModal funnel={funnel} close={close} onSaved={() => void reload()} />,
    });
  const openShare = (funnel: FunnelSummary) =>
    modals.open({ name: 'share-funnel', title: 'Share Funnel', render: ({ close }) => <ShareFunnelModal identifier={funnel.identifier} close={close} /> });
  const duplicate = async (funnel: FunnelSummary) => {
    try {
      const res = await api.get(`funnels/${funnel.id}/duplicate`);
      alert.success(res.message ?? '');
      await reload();
    } catch (e) {
      alert.error(e);
    }
  };
  const remove = (funnel: FunnelSummary) =>
    notice({
      header: 'Delete funnel',
      message: `Delete '${funnel.title}'? Its views and interactions are deleted too. This cannot be undone.`,
      confirmText: 'Delete',
      danger: true,
      onConfirm: async () => {
        const res = await api.delete(`funnels/${funnel.id}`);
        alert.success(res.message ?? '');
        await reload();
      },
    });

  return (
    <>
      <PageHeader title="Funnels">
        <TextField
          size="small"
          margin="none"
          fullWidth={false}
          label="Search funnels"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="contained" startIcon={<AddIcon />} onClick={openCreate}>
          Create Funnel
        </Button>
      </PageHeader>
      <Loaded state={state} reload={reload}>
        {(data) =>
          data.data.length === 0 ? (
            <Paper sx={{ p: 6, textAlign: 'center' }} data-testid="funnels-empty">
              <Typography variant="h6" gutterBottom>
                {term ? 'No funnels match your search.' : 'You have no funnels yet.'}
              </Typography>
              {!term && (
                <Button variant="contained" startIcon={<AddIcon />} onClick={openCreate}>
                  Create your first funnel
                </Button>
              )}
            </Paper>
          ) : (
            <>
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
                    {data.data.map((f) => (
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
                        <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                          <Tooltip title="Edit">
                            <IconButton aria-label={`Edit ${f.title}`} onClick={() => navigate(ROUTES.FunnelEditor(f.id))}>
                              <EditIcon />
                            </IconButton>
                          </Tooltip>
                          <Tooltip title="Preview">
                            <IconButton aria-label={`Preview ${f.title}`} onClick={() => window.open(ROUTES.Player(f.identifier), '_blank', 'noopener')}>
                              <VisibilityIcon />
                            </IconButton>
                          </Tooltip>
                          <Tooltip title="Share">
                            <IconButton aria-label={`Share ${f.title}`} onClick={() => openShare(f)}>
                              <ShareIcon />
                            </IconButton>
                          </Tooltip>
                          <Tooltip title="Settings">
                            <IconButton aria-label={`Update ${f.title}`} onClick={() => openUpdate(f)}>
                              <TuneIcon />
                            </IconButton>
                          </Tooltip>
                          <Tooltip title="Duplicate">
                            <IconButton aria-label={`Duplicate ${f.title}`} onClick={() => void duplicate(f)}>
                              <ContentCopyIcon />
                            </IconButton>
                          </Tooltip>
                          <Tooltip title="Delete">
                            <IconButton aria-label={`Delete ${f.title}`} onClick={() => remove(f)}>
                              <DeleteIcon />
                            </IconButton>
                          </Tooltip>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
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
