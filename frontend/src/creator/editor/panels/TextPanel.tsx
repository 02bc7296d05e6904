import type { DocumentStore, TextElement } from '../document-store';
import { FONT_OPTIONS, loadFont } from '../fonts';
import { ColorValue, NumberValue, PanelSection, Row, SelectValue, TextValue, ToggleValue } from '../fields';
import { DESIGN_SIZE } from '../document-store';
import { MIN_BOX_PX } from '../timeline-math';
import { FONT_SIZE_OPTIONS, THICKNESS_OPTIONS } from './options';

/** A text element: its words, font, size, thickness (with italics), colour, place and skip button. */
export const TextPanel = ({ store, element }: { store: DocumentStore; element: TextElement }) => {
  const d = element.data;
  const set = (data: Partial<TextElement['data']>, key: string) => store.updateText(element.id, (e) => ({ ...e, data: { ...e.data, ...data } }), key);
  const at = d.position ?? element.position;
  return (
    <>
      <PanelSection title="Text">
        <TextValue label="Text" multiline value={d.title} onChange={(title) => set({ title }, 'title')} />
        <SelectValue
          label="Font family"
          value={d.fontFamily}
          options={FONT_OPTIONS}
          onChange={(fontFamily) => {
            loadFont(fontFamily);
            set({ fontFamily }, 'fontFamily');
          }}
        />
        <Row>
          <SelectValue label="Font size" value={d.fontSize} options={FONT_SIZE_OPTIONS} onChange={(fontSize) => set({ fontSize }, 'fontSize')} />
          <SelectValue
            label="Thickness"
            value={d.fontThickness}
            options={THICKNESS_OPTIONS}
            onChange={(fontThickness) => set({ fontThickness: fontThickness }, 'fontThickness')}
          />
        </Row>
        <ColorValue label="Colour" value={d.color} onChange={(color) => set({ color }, 'color')} />
      </PanelSection>
      <PanelSection title="Position">
        <Row>
          <NumberValue
            label="Top"
            unit="px"
            min={0}
            max={DESIGN_SIZE.height}
            value={at?.top ?? 0}
            onChange={(top) => store.moveElement(element.id, { top, left: at?.left ?? 0 })}
          />
          <NumberValue
            label="Left"
            unit="px"
            min={0}
            max={DESIGN_SIZE.width}
            value={at?.left ?? 0}
            onChange={(left) => store.moveElement(element.id, { top: at?.top ?? 0, left })}
          />
          <NumberValue
            label="Width"
            unit="px"
            min={MIN_BOX_PX}
            max={DESIGN_SIZE.width}
            value={element.width ?? 240}
            onChange={(width) => store.resizeElement(element.id, width)}
          />
        </Row>
      </PanelSection>
      <PanelSection title="Skip">
        <ToggleValue
          label="Show a skip button"
          checked={d.settings.showSkip.show}
          onChange={(show) => set({ settings: { ...d.settings, showSkip: { ...d.settings.showSkip, show } } }, 'skip')}
        />
        {d.settings.showSkip.show && (
          <TextValue
            label="Skip button text"
            value={d.settings.showSkip.text}
            onChange={(text) => set({ settings: { ...d.settings, showSkip: { ...d.settings.showSkip, text } } }, 'skipText')}
          />
        )}
      </PanelSection>
    </>
  );
};
