/** A plan's payment schedules and who manages its subscriptions. */
export const PAYMENT_SCHEDULES = ['monthly', 'yearly', 'one-time', 'free'] as const;
export type PaymentSchedule = (typeof PAYMENT_SCHEDULES)[number];
export const MANAGED_BY = ['platform', 'self'] as const;
