import type { Branch } from '@branchify/shared';
import { DESIGN_SIZE, type BranchElement, type DocumentStore } from '../../document-store';
import { ColorValue, NumberValue, PanelSection, Row, SelectValue, TextValue, ToggleValue } from '../../fields';
import { FONT_OPTIONS, loadFont } from '../../fonts';
import { ImageField } from '../ImageField';
import { BACKGROUND_OPTIONS, CORNER_OPTIONS, FONT_SIZE_OPTIONS, LAYOUT_OPTIONS, SHAPE_OPTIONS, THICKNESS_OPTIONS } from '../options';
import type { SetBranch } from './shared';

/** Buttons tab: the selected button's name and layout, its look (standard or image) and its position. */
export const ButtonsTab = ({ store, element, branch }: { store: DocumentStore; element: BranchElement; branch: Branch }) => {
  const set: SetBranch = (change, key) => store.updateBranch(element.id, branch.id, change, key);
  const at = branch.type === 'image' ? branch.image.position : branch.standard.position;
  const place = (position: { top: number; left: number }) =>
    set((b) => (b.type === 'image' ? { ...b, image: { ...b.image, position } } : { ...b, standard: { ...b.standard, position } }), 'position');
  return (
    <>
      <PanelSection title="Button">
        <TextValue label="Branch name" value={branch.name} onChange={(name) => set((b) => ({ ...b, name }), 'name')} />
        <SelectValue label="Layout" value={branch.type} options={LAYOUT_OPTIONS} onChange={(type) => set((b) => ({ ...b, type }), 'type')} />
      </PanelSection>
      {branch.type === 'standard' ? <StandardButtonFields branch={branch} set={set} /> : <ImageButtonFields branch={branch} set={set} />}
      <PanelSection title="Position">
        <Row>
          <NumberValue label="Top" unit="px" min={0} max={DESIGN_SIZE.height} value={at.top} onChange={(top) => place({ top, left: at.left })} />
          <NumberValue label="Left" unit="px" min={0} max={DESIGN_SIZE.width} value={at.left} onChange={(left) => place({ top: at.top, left })} />
        </Row>
      </PanelSection>
    </>
  );
};

/** A standard button: its label (text, font, colour, shape) and its background. */
const StandardButtonFields = ({ branch, set }: { branch: Branch; set: SetBranch }) => {
  const s = branch.standard;
  const bg = s.background;
  const setStandard = (standard: Partial<Branch['standard']>, key: string) => set((b) => ({ ...b, standard: { ...b.standard, ...standard } }), key);
  const setBackground = (background: Partial<Branch['standard']['background']>, key: string) => setStandard({ background: { ...bg, ...background } }, key);
  return (
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
          onChange={(fontThickness) => setStandard({ fontThickness: fontThickness }, 'fontThickness')}
        />
        <ColorValue label="Text colour" value={s.color} onChange={(color) => setStandard({ color }, 'color')} />
        <SelectValue label="Shape" value={s.shape} options={SHAPE_OPTIONS} onChange={(shape) => setStandard({ shape }, 'shape')} />
      </PanelSection>
      <PanelSection title="Background">
        <ToggleValue label="Background" checked={bg.enabled} onChange={(enabled) => setBackground({ enabled }, 'bg')} />
        {bg.enabled && (
          <>
            <SelectValue label="Background type" value={bg.style} options={BACKGROUND_OPTIONS} onChange={(style) => setBackground({ style }, 'bgStyle')} />
            {bg.style === 'image' ? (
              <ImageField label="Background image" value={bg.image} onChange={(image) => setBackground({ image }, 'bgImage')} />
            ) : (
              <ColorValue label="Background colour" value={bg.color} onChange={(color) => setBackground({ color }, 'bgColor')} />
            )}
            <SelectValue label="Corners" value={bg.edge} options={CORNER_OPTIONS} onChange={(edge) => setBackground({ edge }, 'edge')} />
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
  );
};

/** An image button: the picture and its size. */
const ImageButtonFields = ({ branch, set }: { branch: Branch; set: SetBranch }) => (
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
);
