/** Records of the /api contract (docs/api.md), as the browser reads them. */
export interface Plan {
  id: number;
  name: string;
  description?: string | null;
  price: string;
  currency: string;
  payment_schedule: 'monthly' | 'yearly' | 'one-time' | 'free';
  managed_by: 'platform' | 'self';
  max_funnel: number | null;
  max_branch_per_funnel: number | null;
  video_sources: string[] | null;
  price_display?: string;
}

export type SubscriptionStatus = 'active' | 'pending' | 'payment_required' | 'failed_renewal' | 'canceled';

export interface Subscription {
  id: number;
  status: SubscriptionStatus | string;
  canceled_at: string | null;
  cancel_at_period_end?: boolean;
  plan: Plan | null;
  plan_id: number;
  user_id: number;
  managed_by: 'platform' | 'self' | string;
  started_at: string | null;
  payment_method_id: string | null;
  renews_at: string | null;
}

export interface User {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  email_verified_at: string | null;
  is_admin: boolean;
  subscription_id: number | null;
  status: 'active' | 'suspended' | string;
  subscription?: Subscription | null;
}

export interface AuthData {
  access_token: string;
  user: User;
}

export interface Invoice {
  id: number;
  invoice_id: string;
  number?: string | null;
  amount: number;
  amount_refunded?: number;
  currency: string;
  status: string;
  paid_at?: string | null;
  hosted_invoice_url?: string | null;
  created_at: string | null;
}

export interface Card {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface StripeIntegration {
  integrated: boolean;
  publishable_key: string | null;
  account_id: string | null;
}

export type VideoProviderName = 'youtube' | 'vimeo' | 'adilo' | 'generic';

export interface Video {
  id: number;
  title: string;
  size: number;
  thumbnail: string | null;
  duration: number | null;
  provider: VideoProviderName;
  external_id: string | null;
  embed_url: string;
  source: string;
  source_url: string | null;
  total_funnels: number;
  created_at?: string;
}

export interface FunnelSummary {
  id: number;
  identifier: string;
  title: string;
  description: string | null;
  settings: { enable_resume_play: boolean };
  total_videos?: number;
  created_at?: string;
  updated_at?: string;
}

export interface Customization {
  app_name: string;
  app_description: string;
  app_logo_url: string | null;
  app_favicon_url: string | null;
  app_support_url: string | null;
  app_color_scheme: Record<string, string>;
  mailer_configured?: boolean;
}
