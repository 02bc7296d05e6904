import { MESSAGES } from '@branchify/shared';

/**
 * Stripe Connect runs in a popup: the app opens it on the OAuth URL, Stripe sends it back to
 * /admin/integrations?tab=0&stripe=<status>, and that page tells the panel (a BroadcastChannel
 * reaches it even when Stripe's pages cut the popup's `window.opener`) and closes itself.
 */
export const CONNECT_CHANNEL = 'branchify-stripe-connect';
const POPUP_NAME = 'stripe-connect';

export interface ConnectResult {
  status: string;
}

/** The sentence for a status the OAuth callback reports. */
export const connectMessage = (status: string): { message: string; error: boolean } => {
  switch (status) {
    case 'connected':
      return { message: MESSAGES.stripeConnected, error: false };
    case 'invalid-state':
      return { message: MESSAGES.stripeStateInvalid, error: true };
    case 'denied':
      return { message: MESSAGES.stripeConnectDenied, error: true };
    case 'not-configured':
      return { message: MESSAGES.stripeConnectNeedsCredentials, error: true };
    default:
      return { message: MESSAGES.stripeConnectFailed, error: true };
  }
};

/** In the popup: hand the result to the panel. True when this window was the popup and closes. */
export const reportToOpener = (status: string): boolean => {
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CONNECT_CHANNEL);
    channel.postMessage({ status } satisfies ConnectResult);
    channel.close();
  }
  if (window.opener || window.name === POPUP_NAME) {
    window.close();
    return true;
  }
  return false;
};

/** A popup window centred over the panel, or null when the browser blocked it. */
export const openPopup = (): Window | null => {
  const width = 640;
  const height = 760;
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  return window.open('', POPUP_NAME, `popup,width=${width},height=${height},left=${left},top=${top}`);
};
