/** The content model shared by server and browser: providers, option lists, the funnel schema. */
export * from './video-sources';
export * from './options';
export * from './funnel-schema';
