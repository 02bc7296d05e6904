import { DEFAULT_INACTION } from '@branchify/shared';
import type { BranchElement, DocumentStore } from '../../document-store';
import { useFieldError } from '../../errors';
import { ColorValue, NumberValue, PanelSection, Row, SelectValue, TextValue, ToggleValue } from '../../fields';
import { useDocument } from '../../useDocument';
import { ANIMATION_OPTIONS, CORNER_OPTIONS, FONT_SIZE_OPTIONS, GRADIENT_OPTIONS } from '../options';
import { UrlValue, type Data } from './shared';
import { ConditionValue } from '../../logic/LogicFields';

/** A change to the element's settings; a run of changes with the same `key` is one undo step. */
type SetSettings = (s: Partial<Data['settings']>, key: string) => void;

const INACTION_URL = '__url__';

/** Settings tab: what happens if the viewer does not choose, the skip button, and the buttons' look. */
export const SettingsTab = ({ store, element, setSettings }: { store: DocumentStore; element: BranchElement; setSettings: SetSettings }) => (
  <>
    <InactionSection store={store} element={element} setSettings={setSettings} />
    <SkipSection element={element} setSettings={setSettings} />
    <LookSection element={element} setSettings={setSettings} />
  </>
);

/** If the viewer does not choose: the default path (skip, a button, a URL) and pausing while the buttons show. */
const InactionSection = ({ store, element, setSettings }: { store: DocumentStore; element: BranchElement; setSettings: SetSettings }) => {
  const st = element.data.settings;
  const doc = useDocument(store, (s) => s.doc);
  const inactionError = useFieldError(doc, element.id, 'data.settings.inaction');
  const inactionWhenError = useFieldError(doc, element.id, 'data.settings.inactionWhen');
  const isBranch = element.data.branches.some((b) => b.id === st.inaction);
  const inactionChoice = st.inaction === DEFAULT_INACTION || isBranch ? st.inaction : INACTION_URL;
  return (
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
      {st.inaction !== DEFAULT_INACTION && (
        <ConditionValue
          label="Take the default path only when"
          value={st.inactionWhen}
          variables={doc.variables}
          saveError={inactionWhenError}
          onChange={(inactionWhen) => setSettings({ inactionWhen }, 'inactionWhen')}
        />
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
      {st.pauseVideo.enabled && (
        <ToggleValue
          label="Show the time left to viewers"
          helperText="Viewers can always pause the countdown or ask for more time."
          checked={st.pauseVideo.showCountdown}
          onChange={(showCountdown) => setSettings({ pauseVideo: { ...st.pauseVideo, showCountdown } }, 'pauseCountdown')}
        />
      )}
    </PanelSection>
  );
};

/** The skip button: shown or not, its text, size, corners and colours. */
const SkipSection = ({ element, setSettings }: { element: BranchElement; setSettings: SetSettings }) => {
  const skip = element.data.settings.showSkip;
  return (
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
              onChange={(edge) => setSettings({ showSkip: { ...skip, background: { ...skip.background, edge } } }, 'skipEdge')}
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
  );
};

/** The buttons' look: animation, equal widths, gradient (standard buttons) and border. */
const LookSection = ({ element, setSettings }: { element: BranchElement; setSettings: SetSettings }) => {
  const st = element.data.settings;
  const hasStandard = element.data.branches.some((b) => b.type === 'standard');
  return (
    <PanelSection title="Look">
      <SelectValue label="Animation" value={st.animation} options={ANIMATION_OPTIONS} onChange={(animation) => setSettings({ animation }, 'animation')} />
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
                onChange={(direction) => setSettings({ gradient: { ...st.gradient, direction } }, 'gradientDirection')}
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
  );
};
