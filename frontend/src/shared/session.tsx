import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { SESSION_MESSAGES } from '@branchify/shared';
import { api, forgetAccountData, mayHaveSession, refreshRefusal, refreshSession, setAccessToken, setUnauthenticatedHandler } from './api';
import type { AuthResource, SubscriptionResource, UserResource } from '@branchify/shared';

/**
 * Who is signed in. On load the session is restored through POST auth/refresh-token (the httpOnly
 * refresh cookie); when that fails `restoreFailed` is set and the guard asks the user to log in.
 */
export interface SessionState {
  ready: boolean;
  user: UserResource | null;
  subscription: SubscriptionResource | null;
  restoreFailed: boolean;
  /** Why the server ended the session, when it said more than 'Unauthenticated.' (a suspension). */
  signedOutBecause: string | null;
}

// Function properties, not methods: they are stable callbacks that never use `this`, so a caller may take them apart.
interface SessionApi extends SessionState {
  /** Stores what login/register returned and loads the subscription. */
  signIn: (data: AuthResource) => Promise<{ user: UserResource; subscription: SubscriptionResource | null }>;
  signOut: () => Promise<void>;
  /** Reloads the user and subscription (after verification, a plan change, a payment). */
  refresh: () => Promise<{ user: UserResource; subscription: SubscriptionResource | null } | null>;
  /** Forgets the session locally (the server already ended it, for `reason`). */
  forget: (reason?: string) => void;
}

const SessionContext = createContext<SessionApi | null>(null);

const loadSubscription = async (user: UserResource): Promise<SubscriptionResource | null> => {
  if (user.is_admin) return null;
  // The subscription routes refuse an unverified account: it is not asked for before verification.
  if (!user.email_verified_at) return user.subscription ?? null;
  try {
    return (await api.get<SubscriptionResource | null>('users/subscriptions')).data ?? null;
  } catch {
    return user.subscription ?? null;
  }
};

/** The reasons for a signed-out session worth telling the user ('Unauthenticated.' is not one). */
const ended = (reason: string | null): string | null => (reason === SESSION_MESSAGES.accountSuspended ? reason : null);

export const SessionProvider = ({ children, onUnauthenticated }: { children: ReactNode; onUnauthenticated: () => void }) => {
  // Without a session to restore (no hint cookie), the first render is already the signed-out one:
  // no loading screen to paint and replace.
  const [state, setState] = useState<SessionState>(() =>
    mayHaveSession()
      ? { ready: false, user: null, subscription: null, restoreFailed: false, signedOutBecause: null }
      : { ready: true, user: null, subscription: null, restoreFailed: true, signedOutBecause: null },
  );

  const forget = useCallback((reason?: string) => {
    setAccessToken(null);
    // Nothing cached for one account is shown to the next.
    forgetAccountData();
    setState({ ready: true, user: null, subscription: null, restoreFailed: true, signedOutBecause: ended(reason ?? null) });
  }, []);

  useEffect(() => {
    setUnauthenticatedHandler((reason) => {
      forget(reason);
      onUnauthenticated();
    });
  }, [forget, onUnauthenticated]);

  useEffect(() => {
    if (!mayHaveSession()) return undefined;
    let live = true;
    void (async () => {
      const restored = await refreshSession();
      if (!live) return;
      if (!restored) {
        setState({ ready: true, user: null, subscription: null, restoreFailed: true, signedOutBecause: ended(refreshRefusal()) });
        return;
      }
      const user = restored.user as UserResource;
      const subscription = await loadSubscription(user);
      if (live) setState({ ready: true, user, subscription, restoreFailed: false, signedOutBecause: null });
    })();
    return () => {
      live = false;
    };
  }, []);

  const signIn = useCallback(async (data: AuthResource) => {
    setAccessToken(data.access_token);
    forgetAccountData();
    const subscription = await loadSubscription(data.user);
    setState({ ready: true, user: data.user, subscription, restoreFailed: false, signedOutBecause: null });
    return { user: data.user, subscription };
  }, []);

  const refresh = useCallback(async () => {
    try {
      const user = (await api.get<UserResource>('auth/user')).data;
      const subscription = await loadSubscription(user);
      setState({ ready: true, user, subscription, restoreFailed: false, signedOutBecause: null });
      return { user, subscription };
    } catch {
      return null;
    }
  }, []);

  const signOut = useCallback(async () => {
    try {
      await api.post('auth/logout');
    } catch {
      // The local session ends either way.
    }
    setAccessToken(null);
    forgetAccountData();
    setState({ ready: true, user: null, subscription: null, restoreFailed: false, signedOutBecause: null });
  }, []);

  const value = useMemo<SessionApi>(() => ({ ...state, signIn, signOut, refresh, forget }), [state, signIn, signOut, refresh, forget]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
};

export const useSession = (): SessionApi => {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
};
