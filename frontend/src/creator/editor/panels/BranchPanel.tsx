import { useContext, useState } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { BranchElement, DocumentStore, EditorVideo } from '../document-store';
import { SaveErrorsContext, elementPath, type SaveErrors } from '../errors';
import { useDocument } from '../useDocument';
import { ActionTab } from './branch/ActionTab';
import { ButtonsTab } from './branch/ButtonsTab';
import { OverlayTab } from './branch/OverlayTab';
import { PromptTab } from './branch/PromptTab';
import { SettingsTab } from './branch/SettingsTab';
import { BranchChooser, type Data } from './branch/shared';

const TABS = ['Buttons', 'Action', 'Prompt', 'Overlay', 'Settings'] as const;

/** Which tab holds the first problem the last save named for this element (Buttons when none). */
const tabWithProblem = (errors: SaveErrors, path: string | null): (typeof TABS)[number] => {
  const fields = path ? Object.keys(errors).filter((k) => k.startsWith(`${path}.data.`)) : [];
  if (fields.some((k) => /\.branches\.\d+\.(externalLink|video|timestamp|onclick)/.test(k))) return 'Action';
  if (fields.some((k) => k.includes('.settings.'))) return 'Settings';
  if (fields.some((k) => k.includes('.prompt.'))) return 'Prompt';
  if (fields.some((k) => k.includes('.overlay.'))) return 'Overlay';
  return 'Buttons';
};

/**
 * A branch element: its buttons (standard or image), what each does when clicked, the prompt above
 * them, the overlay behind them and the element's settings (skip, inaction, pause, animation,
 * gradient, equal widths, border).
 */
export const BranchPanel = ({
  store,
  element,
  videos,
  duration,
}: {
  store: DocumentStore;
  element: BranchElement;
  videos: readonly EditorVideo[];
  duration: number;
}) => {
  const errors = useContext(SaveErrorsContext);
  // Opened to show a problem from the last save: the tab that has the field.
  const [tab, setTab] = useState<(typeof TABS)[number]>(() => tabWithProblem(errors, elementPath(store.getState().doc, element.id)));
  const selectedBranch = useDocument(store, (s) => s.selectedBranch);
  const branch = element.data.branches.find((b) => b.id === selectedBranch) ?? element.data.branches[0] ?? null;
  const setData = (data: Partial<Data>, key: string) => store.updateBranchElement(element.id, (e) => ({ ...e, data: { ...e.data, ...data } }), key);
  const setSettings = (settings: Partial<Data['settings']>, key: string) => setData({ settings: { ...element.data.settings, ...settings } }, key);
  return (
    <>
      <Tabs value={tab} onChange={(_e, t: (typeof TABS)[number]) => setTab(t)} variant="scrollable" aria-label="Branch element settings" sx={{ mb: 1 }}>
        {TABS.map((t) => (
          <Tab key={t} value={t} label={t} id={`branch-tab-${t}`} aria-controls={`branch-tabpanel-${t}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`branch-tabpanel-${tab}`} aria-labelledby={`branch-tab-${tab}`}>
        {(tab === 'Buttons' || tab === 'Action') && <BranchChooser store={store} element={element} selected={branch} />}
        {tab === 'Buttons' && branch && <ButtonsTab store={store} element={element} branch={branch} />}
        {tab === 'Action' && branch && <ActionTab store={store} element={element} branch={branch} videos={videos} duration={duration} />}
        {tab === 'Prompt' && <PromptTab element={element} setData={setData} />}
        {tab === 'Overlay' && <OverlayTab element={element} setData={setData} />}
        {tab === 'Settings' && <SettingsTab store={store} element={element} setSettings={setSettings} />}
      </Box>
    </>
  );
};
