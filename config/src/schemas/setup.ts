/** The first-run setup steps, in the order the checklist shows them. */
export const SETUP_STEPS = ['plan', 'email', 'stripe', 'branding'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** GET admin/setup: which first-run steps are done, read from the installation's state. */
export interface SetupStatusResource {
  steps: Record<SetupStep, boolean>;
  /** Every step is done. */
  complete: boolean;
  /** An admin dismissed the checklist (only possible once every step is done). */
  dismissed: boolean;
}
