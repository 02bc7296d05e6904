import type { BranchElement } from '../../document-store';
import { ColorValue, OpacityValue, PanelSection, SelectValue, ToggleValue } from '../../fields';
import { ImageField } from '../ImageField';
import { BACKGROUND_OPTIONS } from '../options';
import type { Data, SetData } from './shared';

/** Overlay tab: a colour or picture covering the video behind the buttons. */
export const OverlayTab = ({ element, setData }: { element: BranchElement; setData: SetData }) => {
  const o = element.data.overlay;
  const set = (overlay: Partial<Data['overlay']>, key: string) => setData({ overlay: { ...o, ...overlay } }, `overlay-${key}`);
  return (
    <PanelSection title="Overlay">
      <ToggleValue label="Cover the video behind the buttons" checked={o.enabled} onChange={(enabled) => set({ enabled }, 'on')} />
      {o.enabled && (
        <>
          <SelectValue label="Overlay type" value={o.type} options={BACKGROUND_OPTIONS} onChange={(type) => set({ type }, 'type')} />
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
