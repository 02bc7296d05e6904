import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import AddIcon from '@mui/icons-material/Add';
import { MESSAGES, safeUrl, type Branch } from '@branchify/shared';
import { useQuickNotice } from '../../../../shared/dialogs';
import type { BranchElement, DocumentStore } from '../../document-store';
import { PanelSection, TextValue } from '../../fields';

/** A branch element's data, as its tabs edit it. */
export type Data = BranchElement['data'];

/** A change to part of the element's data; a run of changes with the same `key` is one undo step. */
export type SetData = (data: Partial<Data>, key: string) => void;

/** The element's buttons as chips: pick one to edit, add, duplicate or remove. */
export const BranchChooser = ({ store, element, selected }: { store: DocumentStore; element: BranchElement; selected: Branch | null }) => {
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

/** An http(s) URL, checked as the server checks it; what fails shows 'invalid url' and is not kept. */
export const UrlValue = ({ label, value, onChange, error }: { label: string; value: string; onChange: (url: string) => void; error?: string }) => {
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

/** A change to the selected button; a run of changes with the same `key` is one undo step. */
export type SetBranch = (change: (b: Branch) => Branch, key: string) => void;
