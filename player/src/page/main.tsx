import { createRoot } from 'react-dom/client';
import type { PlayerPayload } from '../runtime/types';
import { Player } from '../view/Player';
import './page.css';
import '../view/player.css';
import { ViewTracker } from './analytics';
import { loadFonts } from './fonts';

/**
 * The /player/{reference} entry: the server inlines the funnel payload as JSON (no second round
 * trip); this reads it, starts the view and mounts the player.
 */
const data = document.getElementById('branchify-funnel')?.textContent;
const mount = document.getElementById('branchify-player');
if (data && mount) {
  const payload = JSON.parse(data) as PlayerPayload;
  const tracker = new ViewTracker(payload.identifier);
  loadFonts(payload);
  createRoot(mount).render(
    <Player
      payload={payload}
      hooks={{
        resume: tracker.whenStarted().then((v) => v?.last_view_state ?? null),
        onInteraction: (i) => tracker.interaction(i),
        onPosition: (id, t, d, played) => tracker.track(id, t, d, played),
        onMilestone: () => void tracker.sendPosition(),
      }}
    />,
  );
}
