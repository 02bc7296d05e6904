/** The first-run setup checklist shown to admins until every step is done. */
export const SetupChecklist = () => null;
