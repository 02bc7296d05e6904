/** The content model shared by server and browser: providers, option lists, fonts, the funnel schema. */
export * from './video-sources';
export * from './options';
export * from './fonts';
export * from './funnel-schema';
export * from './logic';
export * from './funnel-export';
export * from './lengths';
export * from './captions';
