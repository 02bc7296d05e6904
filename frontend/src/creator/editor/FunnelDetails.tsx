import { memo } from 'react';
import Paper from '@mui/material/Paper';
import { MESSAGES } from '@branchify/shared';
import type { DocumentStore, EditorDocument } from './document-store';
import type { SaveErrors } from './errors';
import { PanelSection, TextValue, ToggleValue } from './fields';
import { VariablesSection } from './logic/VariablesSection';

type Meta = Pick<EditorDocument, 'title' | 'description' | 'settings' | 'variables'>;

/** The funnel's own fields: title, description, resume and indexing, and its variables (rendered again only when they change, not on every edit of a video). */
export const FunnelDetails = memo(function FunnelDetails({
  store,
  title,
  description,
  settings,
  variables,
  errors,
}: Meta & { store: DocumentStore; errors: SaveErrors }) {
  const doc = { title, description, settings };
  return (
    <Paper component="section" aria-label="Funnel details" sx={{ p: 2, alignSelf: 'start' }}>
      <PanelSection title="Details">
        <TextValue label="Title" value={doc.title} error={errors.title?.[0]} onChange={(title) => store.setMeta({ title })} />
        <TextValue
          label="Description"
          multiline
          value={doc.description}
          error={errors.description?.[0]}
          onChange={(description) => store.setMeta({ description })}
        />
        <ToggleValue
          label="Let viewers resume where they left off"
          checked={doc.settings.enable_resume_play}
          onChange={(on) => store.setMeta({ settings: { ...doc.settings, enable_resume_play: on } })}
        />
        <ToggleValue
          label={MESSAGES.allowIndexingLabel}
          helperText={MESSAGES.allowIndexingHelp}
          checked={doc.settings.allow_indexing}
          onChange={(on) => store.setMeta({ settings: { ...doc.settings, allow_indexing: on } })}
        />
      </PanelSection>
      <VariablesSection store={store} variables={variables} errors={errors} />
    </Paper>
  );
});
