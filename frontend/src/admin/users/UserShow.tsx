import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Link as RouterLink } from 'react-router-dom';
import { ShowBase, useGetIdentity, useShowContext } from 'react-admin';
import { AdminTitle } from '../layout/AdminTitle';
import type { UserResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { formatDate } from '../../shared/format';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { Loader } from '../../shared/Loader';
import { ROUTES } from '../../shared/routes';
import { InvoiceList } from '../subscriptions/InvoiceList';
import { Field, Section } from '../subscriptions/Section';
import { SubscriptionPanel } from '../subscriptions/SubscriptionPanel';
import { fullName } from './format';
import { useUserModals } from './modals';

const Header = ({ user, self }: { user: UserResource; self: boolean }) => {
  const modals = useUserModals();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1">
          {fullName(user)}
        </Typography>
        {user.is_admin && <Chip size="small" label="Admin" color="primary" variant="outlined" />}
        {self && <Chip size="small" label="You" variant="outlined" />}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => modals.edit(user)}>
          Edit
        </Button>
        {!self && (
          <Button variant="outlined" onClick={() => modals.suspend(user)}>
            {user.status === 'active' ? 'Suspend' : 'Reactivate'}
          </Button>
        )}
        {/* Your own account is never offered for deletion (nor suspension: you are an admin). */}
        {!self && (
          <Button variant="outlined" color="error" onClick={() => modals.remove(user, self)}>
            Delete
          </Button>
        )}
      </Box>
    </Box>
  );
};

/** Not verified: the admin can vouch for the address (the user never got or followed the link). */
const MarkVerified = ({ user, onDone }: { user: UserResource; onDone: () => void }) => {
  const verify = useApiMutation({
    mutationFn: () => api.post<UserResource>(`admin/users/${user.id}/verify-email`),
    onSuccess: onDone,
  });
  return (
    <Button size="small" variant="outlined" onClick={() => verify.run()} disabled={verify.isPending} sx={{ ml: 1 }}>
      {verify.isPending ? 'Marking as verified...' : 'Mark as verified'}
    </Button>
  );
};

const Details = ({ user, onChange }: { user: UserResource; onChange: () => void }) => (
  <Section title="Details">
    <Field label="First name">{user.first_name}</Field>
    <Field label="Last name">{user.last_name}</Field>
    <Field label="Email">{user.email}</Field>
    <Field label="Role">{user.is_admin ? 'Admin' : 'User'}</Field>
    <Field label="Status">
      <StatusBadge status={user.status === 'active' ? 'active' : 'suspended'} label={user.status} />
    </Field>
    {user.status !== 'active' && user.status_note && <Field label="Suspension reason">{user.status_note}</Field>}
    <Field label="Email verified">
      {user.email_verified_at ? (
        formatDate(user.email_verified_at)
      ) : (
        <>
          Not verified
          <MarkVerified user={user} onDone={onChange} />
        </>
      )}
    </Field>
    <Field label="Created">{formatDate(user.created_at)}</Field>
  </Section>
);

const UserPage = () => {
  const { record, isPending, error, refetch } = useShowContext<UserResource>();
  const { identity } = useGetIdentity();
  if (isPending) return <Loader />;
  if (error || !record) return <Loader error={error?.message ?? 'This user could not be loaded.'} onRetry={() => void refetch()} />;
  const self = identity !== undefined && String(identity.id) === String(record.id);
  return (
    <>
      <AdminTitle title={fullName(record)} />
      <Header user={record} self={self} />
      <Details user={record} onChange={() => void refetch()} />
      <SubscriptionPanel user={record} />
      <InvoiceList userId={record.id} />
    </>
  );
};

/** The user page (/admin/users/{id}): details, subscription and invoices, with the admin's actions. */
export const UserShow = () => (
  <Box sx={{ py: 2, maxWidth: 960 }}>
    <Link component={RouterLink} to={ROUTES.UsersList} underline="hover" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 2 }}>
      <ArrowBackIcon fontSize="small" /> Users
    </Link>
    <ShowBase>
      <UserPage />
    </ShowBase>
  </Box>
);
