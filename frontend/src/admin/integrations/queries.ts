import type { StripeProblem } from '@branchify/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api';

/** GET admin/stripe: the card provider's state. */
export interface StripeStatus {
  client_id: string;
  publishable_key: string;
  redirect_url: string;
  has_secret: boolean;
  has_webhook_secret: boolean;
  configured: boolean;
  /** Whether payments can work: keys set and accepted by Stripe; `problem` says why not. */
  ready: boolean;
  problem: StripeProblem | null;
  connected: boolean;
  account_id: string | null;
  connected_at: string | null;
}

/** GET admin/stripe/config: the credentials form, secrets masked. */
export interface StripeConfig {
  client_id: string;
  secret: string;
  publishable_key: string;
  webhook_secret: string;
  redirect_url: string;
  /** This install's webhook endpoint, to register at Stripe, and the events to select there. */
  webhook_url: string;
  webhook_events: string[];
  has_secret: boolean;
  has_webhook_secret: boolean;
  configured: boolean;
}

/** GET admin/mailer: the SMTP settings, the password masked. */
export interface MailerSettings {
  host: string;
  port: number | null;
  /** As stored: `none`, `ssl` or `tls` when set through the form, but the server passes it on unchecked. */
  encryption: string;
  username: string;
  password: string;
  has_password: boolean;
  from_address: string;
  from_name: string;
  configured: boolean;
  verified_at: string | null;
}

/** Admin-only data: keys under 'admin', forgotten at logout. */
export const integrationKeys = {
  stripe: ['admin', 'stripe'] as const,
  stripeConfig: ['admin', 'stripe', 'config'] as const,
  mailer: ['admin', 'mailer'] as const,
};

export const useStripeStatus = () =>
  useQuery({ queryKey: integrationKeys.stripe, queryFn: async () => (await api.get<StripeStatus>('admin/stripe')).data, staleTime: 0 });

export const useStripeConfig = () =>
  useQuery({ queryKey: integrationKeys.stripeConfig, queryFn: async () => (await api.get<StripeConfig>('admin/stripe/config')).data, staleTime: 0 });

export const useMailerSettings = () =>
  useQuery({ queryKey: integrationKeys.mailer, queryFn: async () => (await api.get<MailerSettings>('admin/mailer')).data, staleTime: 0 });
