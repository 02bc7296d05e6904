import { createRoot } from 'react-dom/client';
import { needsLogic, type FunnelLogic } from '../runtime/logic-hooks';
import type { PlayerPayload } from '../runtime/types';
import { Player } from '../view/Player';
import './page.css';
import '../view/player.css';
import { ViewTracker } from './analytics';
import { embedderMessages } from './embed';
import { loadFonts } from './fonts';

/**
 * The /player/{reference} entry: the server inlines the funnel payload as JSON (no second round
 * trip); this reads it, starts the view and mounts the player. A funnel with variables or
 * conditions loads their code first (a separate chunk, fetched only for such funnels).
 */
const data = document.getElementById('branchify-funnel')?.textContent;
const mount = document.getElementById('branchify-player');
if (data && mount) {
  const payload = JSON.parse(data) as PlayerPayload;
  const tracker = new ViewTracker(payload.identifier);
  loadFonts(payload);
  const render = (logic?: FunnelLogic) =>
    createRoot(mount).render(
      <Player
        payload={payload}
        logic={logic}
        hooks={{
          resume: tracker.whenStarted().then((v) => v?.last_view_state ?? null),
          onInteraction: (i) => tracker.interaction(i),
          onPosition: (id, t, d, played) => tracker.track(id, t, d, played),
          onMilestone: () => void tracker.sendPosition(),
        }}
      />,
    );
  if (needsLogic(payload)) {
    // The embedding page may send values before the chunk arrives: they are kept until then.
    const messages = embedderMessages();
    void import('../logic').then(
      ({ startLogic }) => {
        const logic = startLogic(payload.variables ?? [], location.search);
        messages.deliver((values) => logic.set(values));
        tracker.withVariables(() => logic.values());
        render(logic);
      },
      () => render(),
    );
  } else render();
}
