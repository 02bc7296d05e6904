import { MESSAGES } from '@branchify/shared';
import type { FieldErrors } from '../http/errors';
import { presentUser } from './present';
import type { UserRecord } from '../content-types/users-permissions';

/** What an edit changes: the rest of the record is the server's to set. */
const EDITABLE_FIELDS = ['first_name', 'last_name', 'email'] as const;

/**
 * Fields of the user that an edit cannot change. A client may send them back (react-admin sends the
 * whole record it was served), but only with the value GET served: a different value means the
 * client expects a change the edit will not make, so it is refused on that field. Everything else
 * GET serves (subscription, subscription_id, email_verified_at, created_at, updated_at) is set by
 * other flows and may move between GET and PUT (a webhook renews the subscription, the user
 * verifies their email), so it is ignored.
 */
const MUST_MATCH: Record<string, string> = {
  id: MESSAGES.userIdMismatch,
  is_admin: MESSAGES.adminRoleReadOnly,
  status: MESSAGES.statusReadOnlyInEdit,
  status_note: MESSAGES.statusReadOnlyInEdit,
};

/** A body is a profile edit when it carries any editable field; otherwise a status change (suspend, reactivate). */
export const isProfileEdit = (body: Record<string, unknown>): boolean => EDITABLE_FIELDS.some((field) => field in body);

const blankToNull = (value: unknown) => (value === '' || value === undefined ? null : value);

const sameValue = (field: string, sent: unknown, served: unknown): boolean => {
  if (field === 'id') return String(sent) === String(served);
  if (field === 'status_note') return blankToNull(sent) === blankToNull(served);
  return sent === served;
};

/** The read-only fields a profile edit sent with a value other than the stored one, keyed by field. */
export const readOnlyConflicts = (body: Record<string, unknown>, target: UserRecord): FieldErrors => {
  const served: Record<string, unknown> = { ...presentUser(target) };
  const errors: FieldErrors = {};
  for (const [field, message] of Object.entries(MUST_MATCH)) {
    if (field in body && !sameValue(field, body[field], served[field])) errors[field] = [message];
  }
  return errors;
};
