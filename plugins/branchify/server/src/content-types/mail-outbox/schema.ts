import { date, defineSchema, int, str, text } from '../define';

export default defineSchema({
  collectionName: 'branchify_mail_outbox',
  singularName: 'mail-outbox',
  pluralName: 'mail-outboxes',
  displayName: 'Mail outbox',
  internal: true,
  attributes: {
    to_address: str({ required: true }),
    template: str(),
    subject: text(),
    html: text(),
    text_body: text(),
    status: str({ default: 'queued' }),
    attempts: int({ default: 0 }),
    next_attempt_at: date(),
    sent_at: date(),
    last_error: text(),
  },
  indexes: [{ name: 'branchify_mail_outbox_due_idx', columns: ['status', 'next_attempt_at'] }],
});
