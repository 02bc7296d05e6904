import { useContext, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import AddIcon from '@mui/icons-material/Add';
import { DEFAULT_INACTION, MESSAGES, safeUrl, type Branch } from '@branchify/shared';
import { useQuickNotice } from '../../../shared/dialogs';
import { useModals } from '../../../shared/modals';
import { DESIGN_SIZE, type BranchElement, type DocumentStore, type EditorVideo } from '../document-store';
import { SaveErrorsContext, elementPath, useFieldError, type SaveErrors } from '../errors';
import { ColorValue, NumberValue, OpacityValue, PanelSection, Row, SelectValue, TextValue, ToggleValue } from '../fields';
import { FONT_OPTIONS, loadFont } from '../fonts';
import { clampTimestamp, timestampBounds } from '../timeline-math';
import { useDocument } from '../useDocument';
import { ListVideoModal } from '../VideoPickers';
import { ImageField } from './ImageField';
import {
  ANIMATION_OPTIONS,
  BACKGROUND_OPTIONS,
  CLICK_ACTION_OPTIONS,
  CORNER_OPTIONS,
  FONT_SIZE_OPTIONS,
  GRADIENT_OPTIONS,
  LAYOUT_OPTIONS,
  SHAPE_OPTIONS,
  THICKNESS_OPTIONS,
} from './options';

type Data = BranchElement['data'];
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
        {tab === 'Buttons' && branch && <ButtonFields store={store} element={element} branch={branch} />}
        {tab === 'Action' && branch && <ActionFields store={store} element={element} branch={branch} videos={videos} duration={duration} />}
        {tab === 'Prompt' && <PromptFields element={element} setData={setData} />}
        {tab === 'Overlay' && <OverlayFields element={element} setData={setData} />}
        {tab === 'Settings' && <SettingsFields store={store} element={element} setSettings={setSettings} />}
      </Box>
    </>
  );
};

/** The element's buttons as chips: pick one to edit, add, duplicate or remove. */
const BranchChooser = ({ store, element, selected }: { store: DocumentStore; element: BranchElement; selected: Branch | null }) => {
  const notice = useQuickNotice();
  const branches = element.data.branches;
  return (
    <PanelSection title="Branches">
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }} role="listbox" aria-label="Branches">
        {branches.map((b) => (
          <Chip
            key={b.id}
            role="option"
            aria-selected={b.id === selected?.id}
            label={b.name}
            color={b.id === selected?.id ? 'primary' : 'default'}
            onClick={() => store.selectElement(element.id, b.id)}
          />
        ))}
      </Stack>
      <Stack direction="row" spacing={1}>
        <Button size="small" startIcon={<AddIcon />} onClick={() => store.addBranch(element.id)}>
          Add branch
        </Button>
        {selected && (
          <Button size="small" onClick={() => store.duplicateBranch(element.id, selected.id)}>
            Duplicate
          </Button>
        )}
        {selected && (
          <Button
            size="small"
            color="error"
            onClick={() =>
              notice({
                header: 'Remove branch',
                message: `Remove '${selected.name}' from this element?`,
                confirmText: 'Remove',
                danger: true,
                onConfirm: () => store.removeBranch(element.id, selected.id),
              })
            }
          >
            Remove
          </Button>
        )}
      </Stack>
    </PanelSection>
  );
};

const ButtonFields = ({ store, element, branch }: { store: DocumentStore; element: BranchElement; branch: Branch }) => {
  const set = (change: (b: Branch) => Branch, key: string) => store.updateBranch(element.id, branch.id, change, key);
  const s = branch.standard;
  const bg = s.background;
  const at = branch.type === 'image' ? branch.image.position : s.position;
  const place = (position: { top: number; left: number }) =>
    set((b) => (b.type === 'image' ? { ...b, image: { ...b.image, position } } : { ...b, standard: { ...b.standard, position } }), 'position');
  const setStandard = (standard: Partial<Branch['standard']>, key: string) => set((b) => ({ ...b, standard: { ...b.standard, ...standard } }), key);
  const setBackground = (background: Partial<Branch['standard']['background']>, key: string) => setStandard({ background: { ...bg, ...background } }, key);
  return (
    <>
      <PanelSection title="Button">
        <TextValue label="Branch name" value={branch.name} onChange={(name) => set((b) => ({ ...b, name }), 'name')} />
        <SelectValue
          label="Layout"
          value={branch.type}
          options={LAYOUT_OPTIONS}
          onChange={(type) => set((b) => ({ ...b, type: type as Branch['type'] }), 'type')}
        />
      </PanelSection>
      {branch.type === 'standard' ? (
        <>
          <PanelSection title="Label">
            <TextValue label="Button text" value={s.text} onChange={(text) => setStandard({ text }, 'text')} />
            <Row>
              <SelectValue label="Font size" value={s.fontSize} options={FONT_SIZE_OPTIONS} onChange={(fontSize) => setStandard({ fontSize }, 'fontSize')} />
              <SelectValue
                label="Font"
                value={s.font}
                options={FONT_OPTIONS}
                onChange={(font) => {
                  loadFont(font);
                  setStandard({ font }, 'font');
                }}
              />
            </Row>
            <SelectValue
              label="Thickness"
              value={s.fontThickness}
              options={THICKNESS_OPTIONS}
              onChange={(fontThickness) => setStandard({ fontThickness: fontThickness as typeof s.fontThickness }, 'fontThickness')}
            />
            <ColorValue label="Text colour" value={s.color} onChange={(color) => setStandard({ color }, 'color')} />
            <SelectValue label="Shape" value={s.shape} options={SHAPE_OPTIONS} onChange={(shape) => setStandard({ shape: shape as typeof s.shape }, 'shape')} />
          </PanelSection>
          <PanelSection title="Background">
            <ToggleValue label="Background" checked={bg.enabled} onChange={(enabled) => setBackground({ enabled }, 'bg')} />
            {bg.enabled && (
              <>
                <SelectValue
                  label="Background type"
                  value={bg.style}
                  options={BACKGROUND_OPTIONS}
                  onChange={(style) => setBackground({ style: style as typeof bg.style }, 'bgStyle')}
                />
                {bg.style === 'image' ? (
                  <ImageField label="Background image" value={bg.image} onChange={(image) => setBackground({ image }, 'bgImage')} />
                ) : (
                  <ColorValue label="Background colour" value={bg.color} onChange={(color) => setBackground({ color }, 'bgColor')} />
                )}
                <SelectValue
                  label="Corners"
                  value={bg.edge}
                  options={CORNER_OPTIONS}
                  onChange={(edge) => setBackground({ edge: edge as typeof bg.edge }, 'edge')}
                />
                {/* Two a row, so each label reads in full in the panel's width. */}
                {[['top', 'bottom'] as const, ['left', 'right'] as const].map((sides) => (
                  <Row key={sides[0]}>
                    {sides.map((side) => (
                      <NumberValue
                        key={side}
                        label={`Padding ${side}`}
                        min={0}
                        max={200}
                        value={bg.padding[side]}
                        onChange={(n) => setBackground({ padding: { ...bg.padding, [side]: n } }, `padding-${side}`)}
                      />
                    ))}
                  </Row>
                ))}
              </>
            )}
          </PanelSection>
        </>
      ) : (
        <PanelSection title="Image">
          <ImageField label="Button image" value={branch.image.source} onChange={(source) => set((b) => ({ ...b, image: { ...b.image, source } }), 'image')} />
          <Row>
            <NumberValue
              label="Width"
              unit="px"
              min={10}
              max={DESIGN_SIZE.width}
              value={branch.image.width}
              onChange={(width) => set((b) => ({ ...b, image: { ...b.image, width } }), 'w')}
            />
            <NumberValue
              label="Height"
              unit="px"
              min={10}
              max={DESIGN_SIZE.height}
              value={branch.image.height}
              onChange={(height) => set((b) => ({ ...b, image: { ...b.image, height } }), 'h')}
            />
          </Row>
        </PanelSection>
      )}
      <PanelSection title="Position">
        <Row>
          <NumberValue label="Top" unit="px" min={0} max={DESIGN_SIZE.height} value={at.top} onChange={(top) => place({ top, left: at.left })} />
          <NumberValue label="Left" unit="px" min={0} max={DESIGN_SIZE.width} value={at.left} onChange={(left) => place({ top: at.top, left })} />
        </Row>
      </PanelSection>
    </>
  );
};

/** An http(s) URL, checked as the server checks it; what fails shows 'invalid url' and is not kept. */
const UrlValue = ({ label, value, onChange, error }: { label: string; value: string; onChange: (url: string) => void; error?: string }) => {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const invalid = draft.trim() !== '' && !safeUrl.safeParse(draft).success;
  return (
    <TextValue
      label={label}
      value={draft}
      placeholder="https://"
      error={invalid ? MESSAGES.invalidUrl : draft === value ? error : undefined}
      onChange={(next) => {
        setDraft(next);
        const parsed = safeUrl.safeParse(next);
        if (parsed.success) onChange(parsed.data);
      }}
    />
  );
};

const ActionFields = ({
  store,
  element,
  branch,
  videos,
  duration,
}: {
  store: DocumentStore;
  element: BranchElement;
  branch: Branch;
  videos: readonly EditorVideo[];
  duration: number;
}) => {
  const modals = useModals();
  const doc = useDocument(store, (s) => s.doc);
  const index = element.data.branches.findIndex((b) => b.id === branch.id);
  const linkError = useFieldError(doc, element.id, `data.branches.${index}.externalLink`);
  const videoError = useFieldError(doc, element.id, `data.branches.${index}.video`);
  const set = (change: (b: Branch) => Branch, key: string) => store.updateBranch(element.id, branch.id, change, key);
  const bounds = timestampBounds(duration);
  const setTimestamp = (part: Partial<Branch['timestamp']>) =>
    set((b) => ({ ...b, timestamp: clampTimestamp({ ...b.timestamp, ...part }, duration) }), 'timestamp');
  const videoOptions = [
    ...(branch.video && !videos.some((v) => v.editor_id === branch.video) ? [{ value: branch.video, label: 'A removed video: choose another' }] : []),
    ...videos.map((v, i) => ({ value: v.editor_id, label: v.video?.title ?? `Video ${i + 1}` })),
  ];
  return (
    <PanelSection title="When clicked">
      <SelectValue
        label="Click action"
        value={branch.onclick}
        options={CLICK_ACTION_OPTIONS}
        onChange={(onclick) => set((b) => ({ ...b, onclick: onclick as Branch['onclick'] }), 'onclick')}
      />
      {branch.onclick === 'url' && (
        <>
          <UrlValue label="URL" value={branch.externalLink ?? ''} error={linkError} onChange={(externalLink) => set((b) => ({ ...b, externalLink }), 'url')} />
          <ToggleValue
            label="Open links in a new tab"
            checked={element.data.settings.externalLink}
            onChange={(externalLink) =>
              store.updateBranchElement(element.id, (e) => ({ ...e, data: { ...e.data, settings: { ...e.data.settings, externalLink } } }))
            }
          />
        </>
      )}
      {branch.onclick === 'branch' && (
        <>
          <SelectValue
            label="Branch to video"
            value={branch.video ?? ''}
            options={videoOptions}
            error={videoError}
            onChange={(video) => set((b) => ({ ...b, video }), 'video')}
          />
          <Button
            size="small"
            onClick={() =>
              modals.open({
                name: 'list-video',
                title: 'Select Video',
                maxWidth: 'md',
                render: ({ close }) => (
                  <ListVideoModal
                    videos={videos}
                    selected={branch.video}
                    onPick={(editorId) => {
                      set((b) => ({ ...b, video: editorId }), 'video');
                      close();
                    }}
                  />
                ),
              })
            }
          >
            Choose from the funnel's videos
          </Button>
        </>
      )}
      {branch.onclick === 'timestamp' && (
        <Row>
          <NumberValue label="Hours" min={0} max={bounds.hours} value={branch.timestamp.hours} onChange={(hours) => setTimestamp({ hours })} />
          <NumberValue label="Minutes" min={0} max={bounds.minutes} value={branch.timestamp.minutes} onChange={(minutes) => setTimestamp({ minutes })} />
          <NumberValue label="Seconds" min={0} max={bounds.seconds} value={branch.timestamp.seconds} onChange={(seconds) => setTimestamp({ seconds })} />
        </Row>
      )}
    </PanelSection>
  );
};

const PromptFields = ({ element, setData }: { element: BranchElement; setData: (data: Partial<Data>, key: string) => void }) => {
  const p = element.data.prompt;
  const set = (prompt: Partial<Data['prompt']>, key: string) => setData({ prompt: { ...p, ...prompt } }, `prompt-${key}`);
  const bg = p.background;
  return (
    <>
      <PanelSection title="Prompt">
        <TextValue label="Prompt text" multiline value={p.text} onChange={(text) => set({ text }, 'text')} />
        <Row>
          <SelectValue label="Font size" value={p.fontSize} options={FONT_SIZE_OPTIONS} onChange={(fontSize) => set({ fontSize }, 'size')} />
          <SelectValue
            label="Font"
            value={p.fontFamily}
            options={FONT_OPTIONS}
            onChange={(fontFamily) => {
              loadFont(fontFamily);
              set({ fontFamily }, 'font');
            }}
          />
        </Row>
        <SelectValue
          label="Thickness"
          value={p.fontThickness}
          options={THICKNESS_OPTIONS}
          onChange={(fontThickness) => set({ fontThickness: fontThickness as typeof p.fontThickness }, 'thickness')}
        />
        <ColorValue label="Text colour" value={p.color} onChange={(color) => set({ color }, 'color')} />
        <Row>
          <NumberValue
            label="Top"
            unit="px"
            min={-DESIGN_SIZE.height}
            max={DESIGN_SIZE.height}
            value={p.position.top}
            onChange={(top) => set({ position: { ...p.position, top } }, 'pos')}
          />
          <NumberValue
            label="Left"
            unit="px"
            min={-DESIGN_SIZE.width}
            max={DESIGN_SIZE.width}
            value={p.position.left}
            onChange={(left) => set({ position: { ...p.position, left } }, 'pos')}
          />
        </Row>
      </PanelSection>
      <PanelSection title="Prompt background">
        <ToggleValue label="Background" checked={bg.enabled} onChange={(enabled) => set({ background: { ...bg, enabled } }, 'bg')} />
        {bg.enabled && (
          <>
            <ColorValue label="Background colour" value={bg.color} onChange={(color) => set({ background: { ...bg, color } }, 'bgColor')} />
            <SelectValue
              label="Corners"
              value={bg.edge}
              options={CORNER_OPTIONS}
              onChange={(edge) => set({ background: { ...bg, edge: edge as typeof bg.edge } }, 'edge')}
            />
          </>
        )}
      </PanelSection>
    </>
  );
};

const OverlayFields = ({ element, setData }: { element: BranchElement; setData: (data: Partial<Data>, key: string) => void }) => {
  const o = element.data.overlay;
  const set = (overlay: Partial<Data['overlay']>, key: string) => setData({ overlay: { ...o, ...overlay } }, `overlay-${key}`);
  return (
    <PanelSection title="Overlay">
      <ToggleValue label="Cover the video behind the buttons" checked={o.enabled} onChange={(enabled) => set({ enabled }, 'on')} />
      {o.enabled && (
        <>
          <SelectValue label="Overlay type" value={o.type} options={BACKGROUND_OPTIONS} onChange={(type) => set({ type: type as typeof o.type }, 'type')} />
          {o.type === 'color' ? (
            <>
              <ColorValue label="Overlay colour" value={o.color.value} onChange={(value) => set({ color: { ...o.color, value } }, 'color')} />
              <OpacityValue label="Colour opacity" value={o.color.opacity} onChange={(opacity) => set({ color: { ...o.color, opacity } }, 'colorOpacity')} />
            </>
          ) : (
            <>
              <ImageField label="Overlay image" value={o.image.source} onChange={(source) => set({ image: { ...o.image, source } }, 'image')} />
              <OpacityValue label="Image opacity" value={o.image.opacity} onChange={(opacity) => set({ image: { ...o.image, opacity } }, 'imageOpacity')} />
            </>
          )}
        </>
      )}
    </PanelSection>
  );
};

const INACTION_URL = '__url__';

const SettingsFields = ({
  store,
  element,
  setSettings,
}: {
  store: DocumentStore;
  element: BranchElement;
  setSettings: (s: Partial<Data['settings']>, key: string) => void;
}) => {
  const st = element.data.settings;
  const doc = useDocument(store, (s) => s.doc);
  const inactionError = useFieldError(doc, element.id, 'data.settings.inaction');
  const isBranch = element.data.branches.some((b) => b.id === st.inaction);
  const inactionChoice = st.inaction === DEFAULT_INACTION || isBranch ? st.inaction : INACTION_URL;
  const skip = st.showSkip;
  const hasStandard = element.data.branches.some((b) => b.type === 'standard');
  return (
    <>
      <PanelSection title="If the viewer does not choose">
        <SelectValue
          label="Default path"
          value={inactionChoice}
          error={inactionChoice === INACTION_URL ? undefined : inactionError}
          options={[
            { value: DEFAULT_INACTION, label: 'Skip and continue the video' },
            ...element.data.branches.map((b) => ({ value: b.id, label: `Take ${b.name}` })),
            { value: INACTION_URL, label: 'Open a URL' },
          ]}
          onChange={(v) => setSettings({ inaction: v === INACTION_URL ? (isBranch || st.inaction === DEFAULT_INACTION ? '' : st.inaction) : v }, 'inaction')}
        />
        {inactionChoice === INACTION_URL && (
          <UrlValue label="Default path URL" value={st.inaction} error={inactionError} onChange={(inaction) => setSettings({ inaction }, 'inactionUrl')} />
        )}
        <ToggleValue
          label="Pause the video while the buttons show"
          checked={st.pauseVideo.enabled}
          onChange={(enabled) => setSettings({ pauseVideo: { ...st.pauseVideo, enabled } }, 'pause')}
        />
        {st.pauseVideo.enabled && (
          <NumberValue
            label="Wait for a choice"
            unit="seconds"
            min={10}
            max={86_400}
            value={st.pauseVideo.duration}
            onChange={(duration) => setSettings({ pauseVideo: { ...st.pauseVideo, duration } }, 'pauseDuration')}
          />
        )}
      </PanelSection>
      <PanelSection title="Skip button">
        <ToggleValue label="Show a skip button" checked={skip.show} onChange={(show) => setSettings({ showSkip: { ...skip, show } }, 'skip')} />
        {skip.show && (
          <>
            <TextValue label="Skip button text" value={skip.text} onChange={(text) => setSettings({ showSkip: { ...skip, text } }, 'skipText')} />
            <Row>
              <SelectValue
                label="Font size"
                value={skip.fontSize}
                options={FONT_SIZE_OPTIONS}
                onChange={(fontSize) => setSettings({ showSkip: { ...skip, fontSize } }, 'skipSize')}
              />
              <SelectValue
                label="Corners"
                value={skip.background.edge}
                options={CORNER_OPTIONS}
                onChange={(edge) =>
                  setSettings({ showSkip: { ...skip, background: { ...skip.background, edge: edge as typeof skip.background.edge } } }, 'skipEdge')
                }
              />
            </Row>
            <ColorValue label="Skip text colour" value={skip.color} onChange={(color) => setSettings({ showSkip: { ...skip, color } }, 'skipColor')} />
            <ColorValue
              label="Skip background colour"
              value={skip.background.color}
              onChange={(color) => setSettings({ showSkip: { ...skip, background: { ...skip.background, color } } }, 'skipBg')}
            />
          </>
        )}
      </PanelSection>
      <PanelSection title="Look">
        <SelectValue
          label="Animation"
          value={st.animation}
          options={ANIMATION_OPTIONS}
          onChange={(animation) => setSettings({ animation: animation as typeof st.animation }, 'animation')}
        />
        <ToggleValue label="Give every button the same width" checked={st.equalize} onChange={(equalize) => setSettings({ equalize }, 'equalize')} />
        {hasStandard && (
          <>
            <ToggleValue
              label="Gradient on standard buttons"
              checked={st.gradient.enabled}
              onChange={(enabled) => setSettings({ gradient: { ...st.gradient, enabled } }, 'gradient')}
            />
            {st.gradient.enabled && (
              <>
                <ColorValue
                  label="Gradient colour"
                  value={st.gradient.color}
                  onChange={(color) => setSettings({ gradient: { ...st.gradient, color } }, 'gradientColor')}
                />
                <SelectValue
                  label="Gradient direction"
                  value={st.gradient.direction}
                  options={GRADIENT_OPTIONS}
                  onChange={(direction) =>
                    setSettings({ gradient: { ...st.gradient, direction: direction as typeof st.gradient.direction } }, 'gradientDirection')
                  }
                />
              </>
            )}
          </>
        )}
        <ToggleValue label="Border" checked={st.border.enabled} onChange={(enabled) => setSettings({ border: { ...st.border, enabled } }, 'border')} />
        {st.border.enabled && (
          <Row>
            <NumberValue
              label="Border size"
              unit="px"
              min={1}
              max={15}
              value={st.border.size}
              onChange={(size) => setSettings({ border: { ...st.border, size } }, 'borderSize')}
            />
            <ColorValue label="Border colour" value={st.border.color} onChange={(color) => setSettings({ border: { ...st.border, color } }, 'borderColor')} />
          </Row>
        )}
      </PanelSection>
    </>
  );
};
