/** The zod schemas server and web app validate the same input with (field messages included). */
export * from './fields';
export * from './auth';
export * from './users';
export * from './plans';
export * from './mailer';
export * from './updates';
export * from './billing';
export * from './videos';
export * from './funnels';
export * from './customization';
export * from './setup';
export * from './analytics';
export * from './webhooks';
