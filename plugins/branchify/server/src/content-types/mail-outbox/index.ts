import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface OutboxRow {
  id: number;
  to_address: string;
  template: string | null;
  subject: string | null;
  html: string | null;
  text_body: string | null;
  status: 'queued' | 'sending' | 'sent' | 'failed';
  attempts: number | null;
  next_attempt_at: string | Date | null;
  sent_at: string | Date | null;
  last_error: string | null;
}
