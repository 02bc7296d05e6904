import { DEFAULT_APP_NAME, DEFAULT_COLOR_SCHEME, SETUP_STEPS, type SetupStatusResource, type SetupStep } from '@branchify/shared';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { awaitingAdministrator } from '../auth/first-admin';

/** Where the "checklist dismissed" flag lives: Strapi's key-value store, shared by every app node. */
const STORE = { type: 'plugin', name: 'branchify', key: 'setup-checklist' } as const;

interface Branding {
  app_name: string;
  app_description: string;
  app_logo_url: string | null;
  app_favicon_url: string | null;
  app_support_url: string | null;
  app_color_scheme: Record<string, string>;
}

/**
 * The app counts as branded once anything an admin can brand differs from the defaults: its name,
 * description, logo, favicon, support URL or a colour. Saving the defaults unchanged is not branding.
 */
const isBranded = (c: Branding): boolean =>
  c.app_name !== DEFAULT_APP_NAME ||
  Boolean(c.app_description) ||
  Boolean(c.app_logo_url) ||
  Boolean(c.app_favicon_url) ||
  Boolean(c.app_support_url) ||
  Object.entries(DEFAULT_COLOR_SCHEME).some(([name, value]) => (c.app_color_scheme[name] ?? value).toLowerCase() !== value.toLowerCase());

/** The first-run checklist, read from the installation's state (nothing is ticked by hand). */
export const setupStatus = async (strapi: Strapi): Promise<SetupStatusResource> => {
  // Ticked only when payments can work: keys set and accepted by Stripe.
  const stripe = await getService(strapi, 'stripe-settings').ready();
  const [plan, email, branding, flag] = await Promise.all([
    // Ticked once a new user has a plan to pick on "Choose a plan" (by the page's own rule): not
    // for a hidden or inactive plan, such as the demo's, nor a paid one while Stripe cannot sell it.
    getService(strapi, 'plan-catalogue').anyPickable(stripe),
    getService(strapi, 'mailer-settings').configured(),
    getService(strapi, 'customization').publicView(),
    strapi.store.get(STORE),
  ]);
  const steps: Record<SetupStep, boolean> = { plan, email, stripe, branding: isBranded(branding) };
  const complete = SETUP_STEPS.every((step) => steps[step]);
  return { steps, complete, dismissed: complete && flag === true };
};

/**
 * What the sign-in pages may know of an install: whether the next account to register becomes its
 * administrator (no administrator yet, and the first one's claim not taken; the register rule).
 * Nothing more.
 */
export const installStatus = async (strapi: Strapi): Promise<{ awaiting_administrator: boolean }> => ({
  awaiting_administrator: await awaitingAdministrator(strapi),
});

export const dismissSetup = async (strapi: Strapi): Promise<void> => {
  await strapi.store.set({ ...STORE, value: true });
};
