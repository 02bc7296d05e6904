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
import InsightsIcon from '@mui/icons-material/Insights';
import type { FunnelSummaryResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useQuickNotice } from '../../shared/dialogs';
import { formatDate } from '../../shared/format';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { useFunnelList } from '../../shared/data/queries';
import { Loaded } from '../../shared/Loader';
import { useModals } from '../../shared/modals';
import { ROUTES } from '../../shared/routes';
import { useCustomization } from '../../shared/customization';
import { useDebounced, usePageTitle } from '../../shared/useDebounced';
import { PageHeader } from '../layout/UserLayout';
import { SubscriptionEndedBanner } from '../billing/ended';
import { FunnelFormModal } from './FunnelFormModal';
import { ShareFunnelModal } from './ShareFunnelModal';

export const FunnelsDashboard = () => {
  const { customization } = useCustomization();
  usePageTitle('Funnels', customization.app_name);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const term = useDebounced(search, 500);
  const funnels = useFunnelList({ page, search: term });
  const modals = useModals();
  const notice = useQuickNotice();
  const navigate = useNavigate();
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
      <SubscriptionEndedBanner />
      <Loaded query={funnels}>
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
                            <IconButton aria-label={`Preview ${f.title}`} onClick={() => navigate(ROUTES.FunnelPreview(f.id))}>
                              <VisibilityIcon />
                            </IconButton>
                          </Tooltip>
                          <Tooltip title="Analytics">
                            <IconButton aria-label={`Analytics of ${f.title}`} onClick={() => navigate(`/funnels/${f.id}/analytics`)}>
                              <InsightsIcon />
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
                            <IconButton aria-label={`Duplicate ${f.title}`} onClick={() => duplicate.run(f)}>
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
