import { lazy, type ComponentType } from 'react';

/**
 * A screen of the panel that loads when first shown, so the panel's first screen downloads only
 * itself; react-admin's layout shows its loading indicator (a Suspense boundary) meanwhile.
 */
export const lazyScreen = <P extends object>(load: () => Promise<ComponentType<P>>) => lazy(async () => ({ default: await load() }));
