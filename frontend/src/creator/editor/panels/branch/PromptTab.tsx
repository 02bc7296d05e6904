import { DESIGN_SIZE, type BranchElement } from '../../document-store';
import { ColorValue, NumberValue, PanelSection, Row, SelectValue, TextValue, ToggleValue } from '../../fields';
import { FONT_OPTIONS, loadFont } from '../../fonts';
import { CORNER_OPTIONS, FONT_SIZE_OPTIONS, THICKNESS_OPTIONS } from '../options';
import type { Data, SetData } from './shared';

/** Prompt tab: the text above the buttons, its font and place, and its background. */
export const PromptTab = ({ element, setData }: { element: BranchElement; setData: SetData }) => {
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
          onChange={(fontThickness) => set({ fontThickness: fontThickness }, 'thickness')}
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
            <SelectValue label="Corners" value={bg.edge} options={CORNER_OPTIONS} onChange={(edge) => set({ background: { ...bg, edge } }, 'edge')} />
          </>
        )}
      </PanelSection>
    </>
  );
};
