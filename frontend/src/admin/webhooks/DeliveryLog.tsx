import { useState } from 'react';
import type { WebhookAttemptResource, WebhookDeliveryResource } from '@branchify/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { formatDate } from '../../shared/format';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { Loader } from '../../shared/Loader';
import type { BadgeStatus } from '../../shared/format';
import { useDeliveries, useDeliveryActions } from './queries';
import { VISUALLY_HIDDEN } from '../../shared/visually-hidden';

const BADGE: Record<WebhookDeliveryResource['status'], BadgeStatus> = { pending: 'inactive', sending: 'inactive', succeeded: 'active', failed: 'failed' };

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleTimeString() : '');

/** The Standard Webhooks headers an attempt carried, as the receiver got them (to compare with what it computed). */
const SentHeaders = ({ headers }: { headers: NonNullable<WebhookAttemptResource['headers']> }) => (
  <Box component="dl" sx={{ m: 0, mt: 0.5, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1, fontSize: 12 }} data-testid="attempt-headers">
    {Object.entries(headers).map(([name, value]) => (
      <Box key={name} sx={{ display: 'contents' }}>
        <Box component="dt" sx={{ color: 'text.secondary', fontFamily: 'monospace' }}>
          {name}
        </Box>
        <Box component="dd" sx={{ m: 0, fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          {value}
        </Box>
      </Box>
    ))}
  </Box>
);

/** Each attempt: its number, the receiver's status code (or the error), when, how long it took, and the headers it was signed with. */
const Attempts = ({ delivery }: { delivery: WebhookDeliveryResource }) =>
  delivery.attempt_log.length ? (
    <Box component="ol" sx={{ m: 0, pl: 2.5 }} data-testid="delivery-attempts">
      {delivery.attempt_log.map((a) => (
        <li key={a.attempt}>
          <Typography variant="body2" component="span">
            {a.status_code ? `HTTP ${a.status_code}` : 'No response'} at {time(a.at)}
            {a.duration_ms !== null ? ` (${a.duration_ms} ms)` : ''}
            {a.error && a.error !== `HTTP ${a.status_code}` ? ` · ${a.error}` : ''}
          </Typography>
          {a.headers && <SentHeaders headers={a.headers} />}
        </li>
      ))}
    </Box>
  ) : (
    <Typography variant="body2" color="text.secondary">
      Not attempted yet
    </Typography>
  );

/** One delivery: the event, its status (and next try), its attempts, when it was queued, and Resend. */
const DeliveryRow = ({ delivery: d, onResend, resending }: { delivery: WebhookDeliveryResource; onResend: (id: number) => void; resending: boolean }) => (
  <TableRow data-testid="delivery-row" data-status={d.status}>
    <TableCell>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {d.type}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {d.event_id}
      </Typography>
    </TableCell>
    <TableCell>
      <StatusBadge status={BADGE[d.status]} label={d.status} />
      {d.status === 'pending' && d.attempts > 0 && d.next_attempt_at && (
        <Typography variant="caption" color="text.secondary" component="div">
          Next try at {time(d.next_attempt_at)}
        </Typography>
      )}
    </TableCell>
    <TableCell>
      <Attempts delivery={d} />
    </TableCell>
    <TableCell>
      {formatDate(d.created_at)} {time(d.created_at)}
    </TableCell>
    <TableCell align="right">
      <Button size="small" onClick={() => onResend(d.id)} disabled={d.status === 'sending' || resending} aria-label={`Resend ${d.type} ${d.event_id}`}>
        Resend
      </Button>
    </TableCell>
  </TableRow>
);

/** The delivery log of one endpoint: every event sent to it, each attempt's result, and Resend. */
export const DeliveryLog = ({ endpointId }: { endpointId: number }) => {
  const [page, setPage] = useState(1);
  const deliveries = useDeliveries(endpointId, page);
  const { resend, test } = useDeliveryActions(endpointId);
  const alert = useAlert();

  const onResend = (id: number) => resend.mutate(id, { onSuccess: (res) => alert.success(res.message ?? ''), onError: (error) => alert.error(error) });
  const onTest = () => test.mutate(undefined, { onSuccess: (res) => alert.success(res.message ?? ''), onError: (error) => alert.error(error) });

  return (
    <Paper component="section" aria-labelledby="delivery-log-title" sx={{ mt: 3, p: 2 }} data-testid="delivery-log">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1 }}>
        <Typography id="delivery-log-title" component="h2" variant="h6">
          Delivery log
        </Typography>
        <Button variant="outlined" onClick={onTest} disabled={test.isPending}>
          Send test event
        </Button>
      </Box>
      {deliveries.isPending || deliveries.isError ? (
        <Loader label="Loading deliveries" error={deliveries.isError ? errorMessage(deliveries.error) : null} onRetry={() => void deliveries.refetch()} />
      ) : deliveries.data.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ py: 4, textAlign: 'center' }} data-testid="deliveries-empty">
          No deliveries yet. Events this endpoint subscribes to appear here as they are sent; Send test event tries it now.
        </Typography>
      ) : (
        <>
          <TableContainer>
            <Table size="small" aria-labelledby="delivery-log-title">
              <TableHead>
                <TableRow>
                  <TableCell>Event</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Attempts</TableCell>
                  <TableCell>Queued</TableCell>
                  <TableCell>
                    <Box component="span" sx={VISUALLY_HIDDEN}>
                      Actions
                    </Box>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {deliveries.data.data.map((d) => (
                  <DeliveryRow key={d.id} delivery={d} onResend={onResend} resending={resend.isPending} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={deliveries.data.meta.total}
            page={page - 1}
            rowsPerPage={deliveries.data.meta.per_page}
            rowsPerPageOptions={[]}
            onPageChange={(_e, p) => setPage(p + 1)}
          />
        </>
      )}
    </Paper>
  );
};
